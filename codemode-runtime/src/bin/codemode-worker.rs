//! A worker process and nothing else: for hosts whose `main` cannot call
//! `run_worker_if_requested` (test harnesses, for one), point
//! `WorkerCommand::new` at this binary.

fn main() {
    codemode_runtime::run_worker_if_requested();
    eprintln!(
        "codemode-worker runs sandboxed programs for a codemode host; it is started by the host with `{}`",
        codemode_runtime::WORKER_ARG
    );
    std::process::exit(2);
}
