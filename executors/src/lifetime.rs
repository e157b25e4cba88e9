//! What must not outlive dxdiff: the browsers it starts (a process group each) and their
//! profile folders.
//!
//! A browser runs in its own process group, so a Ctrl-C at the terminal never reaches it, and
//! nothing else would end it when dxdiff goes. Three guards cover the ways dxdiff can go:
//! - **SIGINT, SIGTERM, SIGHUP:** [`install`] makes one thread take these signals; it kills
//!   every owned group, removes their folders, and then dies of the same signal, so the exit
//!   status a shell sees is unchanged.
//! - **SIGKILL, or any other death:** [`spawn`] starts the browser with the parent-death signal
//!   (SIGKILL), and a browser's children go with it (measured on Chromium 156: 9 processes, all
//!   gone within a second). Linux sends that signal when the *thread* that started the child
//!   ends, so every such child is started by one long-lived thread.
//! - **The folder a killed dxdiff left:** [`sweep`] removes, at the next start, the folders
//!   whose owning dxdiff process no longer exists.

use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::sync::mpsc::{Sender, channel};
use std::sync::{Mutex, OnceLock};

use nix::sys::signal::{SigSet, SigmaskHow, Signal, killpg, pthread_sigmask};
use nix::unistd::Pid;

/// A process group, if any, and the file or folder to remove once it is dead.
#[derive(Debug)]
struct Owned {
    group: Option<u32>,
    path: PathBuf,
}

static OWNED: Mutex<Vec<Owned>> = Mutex::new(Vec::new());

/// The signals that end dxdiff after its children are cleaned up.
const STOPS: [Signal; 3] = [Signal::SIGTERM, Signal::SIGINT, Signal::SIGHUP];

/// Record that `group` (if any) is dxdiff's to kill, and `path` (a file or a folder) to remove
/// after it.
pub fn own(group: Option<u32>, path: &Path) {
    if let Ok(mut o) = OWNED.lock() {
        o.push(Owned {
            group,
            path: path.to_path_buf(),
        });
    }
}

/// `path` is handled by its owner now (its group dead, the path removed).
pub fn release(path: &Path) {
    if let Ok(mut o) = OWNED.lock() {
        o.retain(|x| x.path != path);
    }
}

/// Kill every owned group and remove its folder.
fn clean_up() {
    let owned = match OWNED.lock() {
        Ok(mut o) => std::mem::take(&mut *o),
        Err(_) => return,
    };
    for group in owned.iter().filter_map(|o| o.group) {
        let _ = killpg(Pid::from_raw(group as i32), Signal::SIGKILL);
    }
    for o in &owned {
        remove_when_free(&o.path);
    }
}

/// Remove `path` (a file or a folder) once the processes just killed let go of it: they leave
/// a moment after the signal, so the removal is retried for up to a second.
pub fn remove_when_free(path: &Path) {
    for _ in 0..50 {
        if remove(path) || !path.exists() {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// Remove a file or a folder (not what a link points at); whether it is gone.
fn remove(path: &Path) -> bool {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.is_dir() => std::fs::remove_dir_all(path).is_ok(),
        Ok(_) => std::fs::remove_file(path).is_ok(),
        Err(_) => true,
    }
}

/// Take SIGINT, SIGTERM and SIGHUP on one thread that cleans up and then dies of the signal.
/// Call it before any other thread starts: the signals stay blocked in every thread started
/// after, and a spawned child starts with a clear mask (the standard library resets it).
pub fn install() {
    let mut stop = SigSet::empty();
    for s in STOPS {
        stop.add(s);
    }
    if pthread_sigmask(SigmaskHow::SIG_BLOCK, Some(&stop), None).is_err() {
        return;
    }
    std::thread::spawn(move || {
        let Ok(signal) = stop.wait() else {
            return;
        };
        clean_up();
        // Die of the same signal: its default action, unblocked for this thread only, then
        // raised at the process.
        // SAFETY: SIG_DFL installs no handler; nothing runs on this process's behalf.
        #[allow(unsafe_code)]
        unsafe {
            let _ = nix::sys::signal::signal(signal, nix::sys::signal::SigHandler::SigDfl);
        }
        let mut one = SigSet::empty();
        one.add(signal);
        let _ = pthread_sigmask(SigmaskHow::SIG_UNBLOCK, Some(&one), None);
        let _ = nix::sys::signal::raise(signal);
        std::process::exit(128 + signal as i32);
    });
}

/// A command to start, and where the started child goes.
type SpawnRequest = (Command, Sender<std::io::Result<Child>>);

/// Start `cmd` with the parent-death signal set to SIGKILL, from the one long-lived thread
/// that starts such children (see the module's note).
pub fn spawn(cmd: Command) -> std::io::Result<Child> {
    static SPAWNER: OnceLock<Mutex<Sender<SpawnRequest>>> = OnceLock::new();
    let tx = SPAWNER.get_or_init(|| {
        let (tx, rx) = channel::<SpawnRequest>();
        std::thread::spawn(move || {
            for (mut cmd, reply) in rx {
                let _ = reply.send(spawn_dying_with_parent(&mut cmd));
            }
        });
        Mutex::new(tx)
    });
    let (reply, answer) = channel();
    let gone = || std::io::Error::other("the spawning thread is gone");
    tx.lock()
        .map_err(|_| gone())?
        .send((cmd, reply))
        .map_err(|_| gone())?;
    answer.recv().map_err(|_| gone())?
}

fn spawn_dying_with_parent(cmd: &mut Command) -> std::io::Result<Child> {
    use std::os::unix::process::CommandExt;
    let parent = std::process::id();
    // SAFETY: the closure runs between fork and exec; it calls only prctl, getppid and _exit,
    // which are async-signal-safe, and allocates nothing.
    #[allow(unsafe_code)]
    unsafe {
        cmd.pre_exec(move || {
            nix::sys::prctl::set_pdeathsig(Signal::SIGKILL)?;
            // dxdiff died before the line above: nothing would send the signal now.
            if nix::unistd::getppid().as_raw() as u32 != parent {
                nix::libc::_exit(137);
            }
            Ok(())
        });
    }
    cmd.spawn()
}

/// Remove the folders and files under `dir` named `{prefix}{pid}-...` whose process `pid` is
/// gone: what a dxdiff killed with SIGKILL left. Those of living processes are theirs.
pub fn sweep(dir: &Path, prefix: &str) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix(prefix))
            .and_then(|rest| rest.split('-').next())
            .and_then(|p| p.parse::<u32>().ok())
        else {
            continue;
        };
        let alive = Path::new("/proc").join(pid.to_string()).exists();
        // Only a real folder or file is removed; a link someone planted is left alone.
        let real = e.file_type().is_ok_and(|t| t.is_dir() || t.is_file());
        if !alive && real {
            remove(&e.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sweep_removes_only_the_folders_of_dead_processes() {
        let dir = std::env::temp_dir().join(format!("dxdiff-lifetime-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("scratch");
        let mine = dir.join(format!("p-{}-0", std::process::id()));
        // No pid reaches 2^22 on Linux (pid_max's ceiling), so this process is gone.
        let dead = dir.join("p-4194305-3");
        let other = dir.join("q-4194305-3");
        for d in [&mine, &dead, &other] {
            std::fs::create_dir_all(d.join("inner")).expect("scratch");
        }
        let log = dir.join("p-4194305-3.log");
        std::fs::write(&log, b"x").expect("scratch");
        std::os::unix::fs::symlink(&mine, dir.join("p-4194306-0")).expect("link");
        sweep(&dir, "p-");
        assert!(mine.exists(), "a living process's folder stays");
        assert!(!dead.exists(), "a dead process's folder goes");
        assert!(!log.exists(), "and its files");
        assert!(other.exists(), "another prefix is not ours");
        assert!(
            dir.join("p-4194306-0").exists(),
            "a link is not followed or removed"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_spawned_child_dies_with_its_parent_thread_kept_alive() {
        // The child is started from the spawning thread, not this test's, so it survives this
        // thread's end and runs until killed.
        let child = std::thread::spawn(|| {
            let mut c = Command::new("sleep");
            c.arg("30");
            spawn(c).expect("sleep starts")
        })
        .join()
        .expect("joined");
        std::thread::sleep(std::time::Duration::from_millis(200));
        let pid = child.id();
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        assert!(
            !stat.is_empty() && !stat.contains(") Z"),
            "still running after the calling thread ended: {stat}"
        );
        let mut child = child;
        let _ = child.kill();
        let _ = child.wait();
    }
}
