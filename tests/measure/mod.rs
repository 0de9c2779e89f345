//! Measuring a child process: its wall and CPU time and its peak memory,
//! for the bound of `tests/bounded.rs`. `wait4` gives the child's own
//! rusage (`getrusage(RUSAGE_CHILDREN)` would give the peak of every child
//! so far); the call into libc is this module's only `unsafe` code, as in
//! the compiler's `tests/cpu_time`.

use std::io::Read;
use std::os::unix::process::ExitStatusExt;
use std::process::{Command, ExitStatus, Stdio};
use std::time::Duration;

/// What [`measure`] saw of a child: how it ended, the first bytes of its
/// errors and the last of its output, how many bytes each had, its wall and
/// CPU time and its peak resident memory.
pub struct Measured {
    pub status: ExitStatus,
    /// The last bytes of stdout (a server's last answers).
    pub stdout_tail: Vec<u8>,
    pub stdout_len: usize,
    pub stderr: Vec<u8>,
    pub stderr_len: usize,
    pub wall: Duration,
    pub cpu: Duration,
    /// Peak resident set size in bytes (`ru_maxrss`).
    pub max_rss: u64,
    /// Killed at the deadline or past `max_memory`: what it would have done is unknown.
    pub killed: Option<&'static str>,
}

/// The bytes of each stream [`measure`] keeps (the rest are counted).
const KEPT: usize = 1 << 20;
/// The bytes of the end of each stream it keeps.
const TAIL: usize = 1 << 12;

/// Runs `command` with `stdin` as its input, reading its output as it comes
/// (keeping the first MiB of each stream, counting the rest), and measures
/// it. A child still running at `deadline`, or whose resident memory passes
/// `max_memory`, is killed, so that a run before a fix cannot take the
/// machine down; `killed` says which.
// The child is reaped by `wait4`, which std does not know of.
#[allow(clippy::zombie_processes)]
pub fn measure(command: &mut Command, stdin: Vec<u8>, deadline: Duration, max_memory: u64) -> Measured {
    let started = std::time::Instant::now();
    let mut child =
        command.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("spawn the child");
    let input = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || {
        let mut input = input;
        // A child that exits early closes its end: that is its business.
        let _ = std::io::Write::write_all(&mut input, &stdin);
    });
    let read = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let (mut kept, mut tail, mut count, mut buffer) = (Vec::new(), Vec::new(), 0, vec![0; 1 << 16]);
            if let Some(mut pipe) = pipe {
                while let Ok(n) = pipe.read(&mut buffer) {
                    if n == 0 {
                        break;
                    }
                    let room = KEPT.saturating_sub(kept.len()).min(n);
                    kept.extend_from_slice(&buffer[..room]);
                    tail.extend_from_slice(&buffer[..n]);
                    tail.drain(..tail.len().saturating_sub(TAIL));
                    count += n;
                }
            }
            (kept, tail, count)
        })
    };
    let stdout = read(child.stdout.take().map(|p| Box::new(p) as Box<dyn Read + Send>));
    let stderr = read(child.stderr.take().map(|p| Box::new(p) as Box<dyn Read + Send>));
    let pid = libc::pid_t::try_from(child.id()).expect("a pid");
    // A watchdog kills the child at the deadline or past the memory cap;
    // it stops when told the child was reaped.
    let (done, told) = std::sync::mpsc::channel::<()>();
    let watchdog = std::thread::spawn(move || {
        let status = format!("/proc/{pid}/status");
        loop {
            match told.recv_timeout(Duration::from_millis(20)) {
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
                _ => return None,
            }
            let rss = std::fs::read_to_string(&status).ok().and_then(|s| {
                let line = s.lines().find(|l| l.starts_with("VmRSS:"))?;
                line.split_whitespace().nth(1)?.parse::<u64>().ok()
            });
            let why = if started.elapsed() > deadline {
                "the deadline"
            } else if rss.is_some_and(|kb| kb * 1024 > max_memory) {
                "the memory cap"
            } else {
                continue;
            };
            let _ = child.kill();
            return Some(why);
        }
    });
    let mut status = 0;
    // SAFETY: all-zero bytes are a valid rusage (plain integers and timevals).
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `status` and `usage` are valid and writable; `pid` is our child,
    // not yet waited for (std's `Child` only waits when asked to).
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(waited, pid, "wait4: {}", std::io::Error::last_os_error());
    let wall = started.elapsed();
    let _ = done.send(());
    let killed = watchdog.join().expect("watchdog");
    let _ = writer.join();
    let time = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    let (_, stdout_tail, stdout_len) = stdout.join().expect("stdout reader");
    let (stderr, _, stderr_len) = stderr.join().expect("stderr reader");
    Measured {
        status: ExitStatus::from_raw(status),
        stdout_tail,
        stdout_len,
        stderr,
        stderr_len,
        wall,
        cpu: time(usage.ru_utime) + time(usage.ru_stime),
        // Linux gives kilobytes.
        max_rss: u64::try_from(usage.ru_maxrss).unwrap_or(0) * 1024,
        killed,
    }
}
