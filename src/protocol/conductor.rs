//! The search lifecycle every protocol shares: hand the session to the worker, hold or release
//! the result (the bestmove gate of pondering and infinite searches), stop and wait. It
//! guarantees one result per started search.

use std::collections::VecDeque;
use std::sync::Arc;

use crossbeam_channel::{select_biased, Receiver};

use super::Event;
use crate::engine::worker::{Worker, WorkerEvent};
use crate::engine::{SearchControl, SearchInfo, SearchJob, Session};

/// A search in progress.
struct Running {
    control: Arc<SearchControl>,
    /// Pondering or infinite: the result waits for `stop` (or `ponderhit`).
    hold: bool,
    /// A finished search's result waiting behind the gate.
    held: Option<SearchInfo>,
}

/// Owns the session while idle, the worker, and the two event sources: input lines and the
/// worker's reports.
pub struct Conductor {
    session: Option<Box<dyn Session>>,
    worker: Worker,
    running: Option<Running>,
    /// Lines from the stdin reader, then `Eof`; disconnected after that.
    input: Receiver<Event>,
    /// Whether `input` may still deliver (it is not asked again once disconnected).
    input_open: bool,
    /// Events read while waiting for a search to end, handled afterwards in order.
    queue: VecDeque<Event>,
    /// The result of a search that ran on this thread (no worker thread could start).
    inline_done: Option<WorkerEvent>,
}

/// What a worker event means for the protocol.
pub enum Outcome {
    /// Print this snapshot (an `info` line).
    Info(SearchInfo),
    /// The search is over and its result may be announced now (once).
    Finished(SearchInfo),
    /// Nothing to print.
    Quiet,
}

impl Conductor {
    /// `first`: a line already read (to detect the protocol), handled before the rest of `input`.
    pub fn new(
        session: Box<dyn Session>,
        worker: Worker,
        input: Receiver<Event>,
        first: Option<String>,
    ) -> Conductor {
        Conductor {
            session: Some(session),
            worker,
            running: None,
            input,
            input_open: true,
            queue: first.map(Event::Line).into_iter().collect(),
            inline_done: None,
        }
    }

    /// The next event from the input or the worker, whichever comes first (the worker's when
    /// both are waiting: a search's end is never delayed behind a pipe of input). `None` once
    /// both sources are gone.
    fn receive(&mut self) -> Option<Event> {
        loop {
            let worker = self.worker.events();
            if !self.input_open {
                return worker.recv().ok().map(Event::Worker);
            }
            select_biased! {
                recv(worker) -> w => match w {
                    Ok(w) => return Some(Event::Worker(w)),
                    // No worker thread (it could not start): only input is left.
                    Err(_) => return self.input.recv().ok().or_else(|| {
                        self.input_open = false;
                        None
                    }),
                },
                recv(self.input) -> e => match e {
                    Ok(e) => return Some(e),
                    Err(_) => self.input_open = false,
                },
            }
        }
    }

    /// The next event: queued ones first; `Eof` once input and worker are gone.
    pub fn next_event(&mut self) -> Event {
        if let Some(w) = self.inline_done.take() {
            return Event::Worker(w);
        }
        if let Some(e) = self.queue.pop_front() {
            return e;
        }
        self.receive().unwrap_or(Event::Eof)
    }

    /// The next event of the running search, leaving the input read meanwhile queued, in order,
    /// for later; `read` sees each such event once, as it arrives (GTP looks for `quit`).
    /// `None` when the worker is gone. Lines queued before are not touched, so a long pipe of
    /// queued commands costs nothing per search.
    pub fn next_search_event(&mut self, mut read: impl FnMut(&Event)) -> Option<WorkerEvent> {
        if let Some(w) = self.inline_done.take() {
            return Some(w);
        }
        loop {
            match self.receive() {
                Some(Event::Worker(w)) => return Some(w),
                Some(other) => {
                    read(&other);
                    self.queue.push_back(other);
                }
                None => return None,
            }
        }
    }

    /// Puts an event back at the end of the queue (read early, handled in turn).
    pub fn defer(&mut self, event: Event) {
        self.queue.push_back(event);
    }

    /// Puts an event back to be handled next.
    pub fn defer_front(&mut self, event: Event) {
        self.queue.push_front(event);
    }

    pub fn searching(&self) -> bool {
        self.running.is_some()
    }

    /// The session; `None` only while a search runs (call [`Conductor::wait`] first).
    pub fn session(&mut self) -> Option<&mut Box<dyn Session>> {
        self.session.as_mut()
    }

    /// Replaces the session (a new game); the caller has waited for any search.
    pub fn replace_session(&mut self, session: Box<dyn Session>) {
        self.session = Some(session);
    }

    /// Starts a search of the session. `hold`: keep the result until [`Conductor::stop`] or
    /// [`Conductor::release`]. If no worker thread exists, the search runs here and its
    /// result is queued.
    pub fn start(&mut self, job: SearchJob, control: Arc<SearchControl>, hold: bool) {
        let Some(session) = self.session.take() else {
            return;
        };
        self.running = Some(Running {
            control: Arc::clone(&control),
            hold,
            held: None,
        });
        if let Err(back) = self.worker.start(session, job, Arc::clone(&control)) {
            let (mut session, job) = *back;
            let info = session.search(&job, &control, &mut |_| {});
            self.inline_done = Some(WorkerEvent::Done(session, info));
        }
    }

    /// Interprets a worker event.
    pub fn on_worker(&mut self, event: WorkerEvent) -> Outcome {
        match event {
            WorkerEvent::Info(info) => {
                if self.running.as_ref().is_some_and(|r| r.held.is_none()) {
                    Outcome::Info(info)
                } else {
                    Outcome::Quiet
                }
            }
            WorkerEvent::Done(session, info) => {
                self.session = Some(session);
                match &mut self.running {
                    Some(r) if r.hold => {
                        r.held = Some(info);
                        Outcome::Quiet
                    }
                    Some(_) => {
                        self.running = None;
                        Outcome::Finished(info)
                    }
                    None => Outcome::Quiet,
                }
            }
        }
    }

    /// Asks the running search to stop. Its result comes as `Finished` from [`on_worker`], or
    /// right here when it was already held. Nothing happens when idle.
    ///
    /// [`on_worker`]: Conductor::on_worker
    pub fn stop(&mut self) -> Option<SearchInfo> {
        let r = self.running.as_mut()?;
        r.control.stop();
        r.hold = false;
        let held = r.held.take();
        if held.is_some() {
            self.running = None;
        }
        held
    }

    /// Lifts the gate (`ponderhit` turning a ponder search into a normal one); a held result is
    /// returned to be announced now.
    pub fn release(&mut self) -> Option<SearchInfo> {
        let r = self.running.as_mut()?;
        r.hold = false;
        let held = r.held.take();
        if held.is_some() {
            self.running = None;
        }
        held
    }

    /// The control block of the running search.
    pub fn control(&self) -> Option<&Arc<SearchControl>> {
        self.running.as_ref().map(|r| &r.control)
    }

    /// Stops the running search and waits for it; returns its result (to be announced: every
    /// started search gets exactly one). Input read meanwhile is queued.
    pub fn wait(&mut self) -> Option<SearchInfo> {
        if let Some(held) = self.stop() {
            return Some(held);
        }
        self.running.as_ref()?;
        // A search that ran on this thread left its result aside.
        if let Some(w) = self.inline_done.take() {
            if let Outcome::Finished(info) = self.on_worker(w) {
                return Some(info);
            }
        }
        loop {
            match self.receive() {
                Some(Event::Worker(w)) => {
                    if let Outcome::Finished(info) = self.on_worker(w) {
                        return Some(info);
                    }
                }
                Some(other) => self.queue.push_back(other),
                None => {
                    self.running = None;
                    return None;
                }
            }
        }
    }
}
