//! Starting and killing the browser. It runs headless in its own process group, with a fresh
//! profile, so that killing the group leaves nothing behind; its GPU process can be killed
//! alone, which is the only cure found for a hung WebGPU device (docs/chrome.md). Its group and
//! profile are [`crate::lifetime`]'s to clean up when dxdiff is stopped or killed.

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use nix::sys::signal::{Signal, kill, killpg};
use nix::unistd::Pid;

/// The flags every start gets. `--disable-domain-blocking-for-3d-apis` and
/// `--disable-gpu-process-crash-limit` keep WebGPU available after the GPU process was killed
/// a few times; `--disable-dev-shm-usage` keeps a container's small `/dev/shm` from crashing
/// it; the rest make a quiet headless WebGPU browser.
const FLAGS: [&str; 9] = [
    "--disable-dev-shm-usage",
    "--headless=new",
    "--no-sandbox",
    "--enable-unsafe-webgpu",
    "--disable-domain-blocking-for-3d-apis",
    "--disable-gpu-process-crash-limit",
    "--no-first-run",
    "--log-level=3",
    "--disable-background-timer-throttling",
];

/// The WebGPU adapter asked for unless the user's flags choose one: SwiftShader, which every
/// machine has.
pub const DEFAULT_ADAPTER_FLAG: &str = "--use-webgpu-adapter=swiftshader";

/// The start of every profile folder's name: `dxdiff-chrome-{pid}-{n}`, so that a folder whose
/// dxdiff is gone can be told apart and removed ([`crate::lifetime::sweep`]).
pub(super) const PROFILE_PREFIX: &str = "dxdiff-chrome-";

/// Which browser binary: `explicit`, else `$CHROME`, else `chromium` (or Chrome) on `PATH`.
/// Debian's `/usr/bin/chromium` is a shell wrapper; the binary beside it is used instead.
pub fn binary(explicit: Option<&Path>) -> Option<PathBuf> {
    if let Some(p) = explicit {
        return Some(p.to_path_buf());
    }
    if let Some(p) = std::env::var_os("CHROME").filter(|p| !p.is_empty()) {
        return Some(PathBuf::from(p));
    }
    let path = std::env::var_os("PATH")?;
    for name in ["chromium", "chromium-browser", "google-chrome", "chrome"] {
        for dir in std::env::split_paths(&path) {
            let p = dir.join(name);
            if p.is_file() {
                let real = Path::new("/usr/lib/chromium/chromium");
                if name == "chromium" && real.is_file() {
                    return Some(real.to_path_buf());
                }
                return Some(p);
            }
        }
    }
    None
}

/// A running browser.
#[derive(Debug)]
pub struct Browser {
    child: Child,
    profile: PathBuf,
}

impl Browser {
    /// Start `binary` on `url` with the standard flags and `extra` ones; its stderr goes to
    /// `log`.
    pub fn start(
        binary: &Path,
        url: &str,
        extra: &[String],
        log: &Path,
    ) -> std::io::Result<Browser> {
        static STARTS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = STARTS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        crate::lifetime::sweep(&std::env::temp_dir(), PROFILE_PREFIX);
        let profile =
            std::env::temp_dir().join(format!("{PROFILE_PREFIX}{}-{n}", std::process::id()));
        std::fs::create_dir_all(&profile)?;
        let stderr = std::fs::File::create(log)?;
        let mut cmd = Command::new(binary);
        cmd.args(FLAGS)
            .arg(format!("--user-data-dir={}", profile.display()));
        if !extra.iter().any(|f| f.starts_with("--use-webgpu-adapter")) {
            cmd.arg(DEFAULT_ADAPTER_FLAG);
        }
        cmd.args(extra)
            .arg(url)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(stderr)
            .process_group(0);
        let child = match crate::lifetime::spawn(cmd) {
            Ok(c) => c,
            Err(e) => {
                let _ = std::fs::remove_dir_all(&profile);
                return Err(e);
            }
        };
        crate::lifetime::own(Some(child.id()), &profile);
        Ok(Browser { child, profile })
    }

    /// The process group (the browser's pid).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Whether the browser process is gone.
    pub fn exited(&mut self) -> bool {
        !matches!(self.child.try_wait(), Ok(None))
    }

    /// How the browser process ended, once it has: `exit status 1`, `signal 9`.
    pub fn ending(&mut self) -> Option<String> {
        use std::os::unix::process::ExitStatusExt;
        let s = self.child.try_wait().ok().flatten()?;
        Some(match (s.code(), s.signal()) {
            (Some(c), _) => format!("exit status {c}"),
            (None, Some(sig)) => format!("signal {sig}"),
            _ => "an unknown status".into(),
        })
    }

    /// Kill the GPU process of this browser (the browser starts a new one); whether one was
    /// found.
    pub fn kill_gpu_process(&self) -> bool {
        let group = self.pid() as i32;
        let mut killed = false;
        let Ok(dir) = std::fs::read_dir("/proc") else {
            return false;
        };
        for e in dir.flatten() {
            let Some(pid) = e.file_name().to_str().and_then(|s| s.parse::<i32>().ok()) else {
                continue;
            };
            let stat = std::fs::read_to_string(e.path().join("stat")).unwrap_or_default();
            // The fields after the command's closing parenthesis: state, ppid, pgrp, ...
            let pgrp = stat
                .rsplit_once(')')
                .and_then(|(_, rest)| rest.split_whitespace().nth(2))
                .and_then(|g| g.parse::<i32>().ok());
            if pgrp != Some(group) {
                continue;
            }
            let cmdline = std::fs::read(e.path().join("cmdline")).unwrap_or_default();
            if String::from_utf8_lossy(&cmdline).contains("--type=gpu-process") {
                killed |= kill(Pid::from_raw(pid), Signal::SIGKILL).is_ok();
            }
        }
        killed
    }

    /// Kill the whole browser and remove its profile.
    pub fn kill(mut self) {
        let _ = killpg(Pid::from_raw(self.pid() as i32), Signal::SIGKILL);
        let _ = self.child.wait();
        crate::lifetime::remove_when_free(&self.profile);
        crate::lifetime::release(&self.profile);
    }
}
