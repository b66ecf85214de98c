//! The search worker: one long-lived thread that takes a session and a job, searches, and hands
//! the session back with the result. Ownership travels through channels, so the controller
//! never shares the tree with a running search.

use std::sync::Arc;

use crossbeam_channel::{unbounded, Receiver, Sender};
use std::thread::JoinHandle;

use super::{SearchControl, SearchInfo, SearchJob, Session};

/// What the worker reports.
pub enum WorkerEvent {
    /// A periodic snapshot of the running search.
    Info(SearchInfo),
    /// The search ended: the session comes back with the final snapshot.
    Done(Box<dyn Session>, SearchInfo),
}

struct Job {
    session: Box<dyn Session>,
    job: SearchJob,
    control: Arc<SearchControl>,
}

/// A search the worker could not take: the session and the job, handed back.
pub type Unstarted = (Box<dyn Session>, SearchJob);

/// Handle of the worker thread. Dropping it closes the job queue; the thread ends after its
/// current search (the process does not wait for it).
pub struct Worker {
    jobs: Option<Sender<Job>>,
    /// The thread's reports, in order; disconnected when the thread could not start or ended.
    events: Receiver<WorkerEvent>,
    thread: Option<JoinHandle<()>>,
}

impl Worker {
    /// Starts the thread; its reports come through [`Worker::events`].
    pub fn spawn() -> Worker {
        let (jobs, queue) = unbounded::<Job>();
        let (events, reports) = unbounded::<WorkerEvent>();
        let thread = std::thread::Builder::new()
            .name("search".into())
            .stack_size(crate::solve::STACK_BYTES)
            .spawn(move || {
                for Job {
                    mut session,
                    job,
                    control,
                } in queue
                {
                    let mut emit = |info: SearchInfo| {
                        let _ = events.send(WorkerEvent::Info(info));
                    };
                    let info = session.search(&job, &control, &mut emit);
                    if events.send(WorkerEvent::Done(session, info)).is_err() {
                        break;
                    }
                }
            })
            .ok();
        Worker {
            jobs: Some(jobs),
            events: reports,
            thread,
        }
    }

    /// The worker's reports: snapshots of the running search, then its end.
    pub fn events(&self) -> &Receiver<WorkerEvent> {
        &self.events
    }

    /// Starts a search; the session comes back in [`WorkerEvent::Done`]. If the thread could
    /// not be started, the search runs on the caller's thread instead (and blocks it).
    pub fn start(
        &self,
        session: Box<dyn Session>,
        job: SearchJob,
        control: Arc<SearchControl>,
    ) -> Result<(), Box<Unstarted>> {
        match &self.jobs {
            Some(jobs) if self.thread.is_some() => jobs
                .send(Job {
                    session,
                    job,
                    control,
                })
                .map_err(|e| Box::new((e.0.session, e.0.job))),
            _ => Err(Box::new((session, job))),
        }
    }
}
