//! Where the translations' reader runs: on another core than the rules'.
//!
//! Linux often starts a new thread on its parent's core and leaves it there
//! while another core is idle: measured on a 2-core machine, the reader and
//! the rules then took turns on one core for the whole compile, the other
//! idle. A thread allowed every core but its parent's is moved at once.

/// The core the calling thread runs on, if the system tells.
pub fn current_core() -> Option<usize> {
    #[cfg(target_os = "linux")]
    return nix::sched::sched_getcpu().ok();
    #[cfg(not(target_os = "linux"))]
    None
}

/// Keeps the calling thread off the core `core` (where the rules are read),
/// if it may run on another; else, or if the system refuses, leaves it be.
pub fn avoid(core: Option<usize>) {
    #[cfg(target_os = "linux")]
    {
        use nix::sched::{CpuSet, sched_getaffinity, sched_setaffinity};
        use nix::unistd::Pid;
        let (Some(core), Ok(mut allowed)) = (core, sched_getaffinity(Pid::from_raw(0))) else { return };
        let others = (0..CpuSet::count()).filter(|&c| c != core && allowed.is_set(c).unwrap_or(false)).count();
        if others > 0 && allowed.unset(core).is_ok() {
            let _ = sched_setaffinity(Pid::from_raw(0), &allowed);
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = core;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A thread that avoids its parent's core leaves it, where there is
    /// another it may run on (on a machine of one core it stays).
    #[test]
    fn a_thread_that_avoids_a_core_runs_on_another() {
        let parent = current_core();
        std::thread::spawn(move || {
            #[cfg(target_os = "linux")]
            {
                use nix::sched::{CpuSet, sched_getaffinity};
                use nix::unistd::Pid;
                let allowed = |set: &CpuSet| (0..CpuSet::count()).filter(|&c| set.is_set(c).unwrap_or(false)).collect();
                let before: Vec<usize> = allowed(&sched_getaffinity(Pid::from_raw(0)).unwrap());
                let parent = parent.expect("Linux tells the core a thread runs on");
                avoid(Some(parent));
                let after: Vec<usize> = allowed(&sched_getaffinity(Pid::from_raw(0)).unwrap());
                if before.iter().any(|&c| c != parent) {
                    assert_eq!(after, before.iter().copied().filter(|&c| c != parent).collect::<Vec<_>>());
                    assert_ne!(current_core(), Some(parent), "still on the parent's core");
                } else {
                    assert_eq!(after, before, "the only core allowed was taken away");
                }
            }
            #[cfg(not(target_os = "linux"))]
            avoid(parent);
        })
        .join()
        .unwrap();
    }
}
