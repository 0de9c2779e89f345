//! CPU time, for tests that bound how much work something does.
//!
//! Wall time depends on how busy the machine is (two cores shared by several
//! builds); CPU time does not, so a bound on it fails only when the work grows.
//! The calls into libc here are the only `unsafe` code of the test crates.
// Each test file uses one of the two helpers.
#![allow(dead_code)]

use std::io::Read;
use std::os::unix::process::ExitStatusExt;
use std::process::{Command, ExitStatus, Output, Stdio};
use std::time::Duration;

/// CPU time (user and system) the calling thread has used so far.
pub fn thread() -> Duration {
    let mut now = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `now` is a valid, writable timespec; the clock id is a constant
    // Linux and the BSDs know.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) };
    assert_eq!(ok, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID): {}", std::io::Error::last_os_error());
    Duration::new(now.tv_sec as u64, now.tv_nsec as u32)
}

/// Runs `command` to its end as [`Command::output`] does, and also returns
/// the CPU time (user and system) the child used.
// The child is reaped by `wait4`, which std does not know of.
#[allow(clippy::zombie_processes)]
pub fn output(command: &mut Command) -> (Output, Duration) {
    let mut child =
        command.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("spawn the child");
    // Read both pipes while the child runs, so that neither can fill up and block it.
    let read = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut pipe) = pipe {
                pipe.read_to_end(&mut bytes).expect("read the child's output");
            }
            bytes
        })
    };
    let stdout = read(child.stdout.take().map(|p| Box::new(p) as Box<dyn Read + Send>));
    let stderr = read(child.stderr.take().map(|p| Box::new(p) as Box<dyn Read + Send>));
    let pid = libc::pid_t::try_from(child.id()).expect("a pid");
    let mut status = 0;
    // SAFETY: all-zero bytes are a valid rusage (plain integers and timevals).
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `status` and `usage` are valid and writable; `pid` is our child,
    // not yet waited for (std's `Child` only waits when asked to).
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(waited, pid, "wait4: {}", std::io::Error::last_os_error());
    let time = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    let output = Output {
        status: ExitStatus::from_raw(status),
        stdout: stdout.join().expect("stdout reader"),
        stderr: stderr.join().expect("stderr reader"),
    };
    (output, time(usage.ru_utime) + time(usage.ru_stime))
}
