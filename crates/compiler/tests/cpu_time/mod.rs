//! CPU time, for tests that bound how much work something does.
//!
//! Wall time depends on how busy the machine is (two cores shared by several
//! builds); CPU time does not, so a bound on it fails only when the work grows.
//! It is the whole process's, so that work on any thread counts, measured in a
//! process where the test runs alone.
//! The calls into libc here are the only `unsafe` code of the test crates.
// Each test file uses one of the two helpers.
#![allow(dead_code)]

use std::io::Read;
use std::os::unix::process::ExitStatusExt;
use std::process::{Command, ExitStatus, Output, Stdio};
use std::time::Duration;

/// The variable that tells a child process that it runs one test alone.
const ALONE: &str = "CARCASSONNE_TEST_ALONE";

/// Whether the calling test runs alone in its process, so that [`process`]
/// counts its work and nothing else. When it does not (the harness runs tests
/// side by side on threads), the test is run again alone, in a child process
/// (this test binary, `--exact` its name, one test thread), its output shown
/// and its failure made this test's; the caller then returns, its work done
/// there:
///
/// ```ignore
/// if !cpu_time::alone() { return; }
/// ```
pub fn alone() -> bool {
    alone_with(&[])
}

/// As [`alone`], with environment variables `vars` given to the child (what
/// the parent measured once for all its tests, say).
pub fn alone_with(vars: &[(&str, String)]) -> bool {
    let thread = std::thread::current();
    // With one test thread the harness runs each test on the main thread, one
    // after another: alone already.
    let Some(name) = thread.name().filter(|name| *name != "main") else { return true };
    if std::env::var_os(ALONE).is_some() {
        return true;
    }
    let exe = std::env::current_exe().expect("the test binary");
    let (out, cpu) = output(
        Command::new(exe)
            .args([name, "--exact", "--test-threads", "1", "--nocapture"])
            .env(ALONE, "1")
            .envs(vars.iter().map(|(k, v)| (k, v))),
    );
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    eprint!("{stderr}");
    assert!(out.status.success(), "{name}, run alone, failed ({cpu:?} of CPU time):\n{stdout}");
    assert!(stdout.contains("1 passed"), "{name} did not run alone:\n{stdout}");
    false
}

/// CPU time (user and system) the calling thread has used so far: for a
/// scale measured once and shared by a file's tests (see [`alone_with`]).
pub fn thread() -> Duration {
    let mut now = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: as in `process`.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) };
    assert_eq!(ok, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID): {}", std::io::Error::last_os_error());
    Duration::new(now.tv_sec as u64, now.tv_nsec as u32)
}

/// CPU time (user and system) the whole process has used so far, every
/// thread included: the work of a test that runs [`alone`].
pub fn process() -> Duration {
    let mut now = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `now` is a valid, writable timespec; the clock id is a constant
    // Linux and the BSDs know.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut now) };
    assert_eq!(ok, 0, "clock_gettime(CLOCK_PROCESS_CPUTIME_ID): {}", std::io::Error::last_os_error());
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
