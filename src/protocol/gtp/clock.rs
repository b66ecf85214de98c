//! GTP's clocks: `time_settings`, `kgs-time_settings` (absolute, Canadian, byo-yomi) and
//! `time_left`, and the budget of the next move from them.

use super::*;

/// The time system set by `time_settings` / `kgs-time_settings`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum TimeSystem {
    /// No time settings: `DEFAULT_MOVE_TIME` (or `gpn-setoption movetime`) per move.
    Unset,
    /// No limit at all (`time_settings M B 0` with B > 0, or `kgs-time_settings none`).
    NoLimit,
    Absolute,
    /// Canadian: after the main time, `period` for every `stones` moves.
    Canadian {
        period: Duration,
        stones: u32,
    },
    /// Japanese: after the main time, `periods` periods of `period` each.
    Byoyomi {
        period: Duration,
    },
}

/// The clock of a move in Canadian main time `main`: the main time's share, plus the
/// overtime's share of one stone (`period / stones`), which every later move gets anyway; without
/// it the main time would be spread as if nothing came after it, and the overtime never used.
fn canadian_main_time(main: Duration, period: Duration, stones: u32, base: Clock) -> Clock {
    Clock {
        remaining: main,
        byoyomi: period / stones.max(1),
        ..base
    }
}

impl Controller {
    /// The budget of the next move of `player`, within `maxmovetime`.
    pub(super) fn budget(&self, player: usize, moves_left: Option<u32>) -> Budget {
        let b = self.clock_budget(player, moves_left);
        match self.max_move_time {
            Some(cap) => Budget {
                soft: b.soft.min(cap),
                hard: b.hard.min(cap),
            },
            None => b,
        }
    }

    /// A clock with our pace (`Slow Mover`), to be filled in.
    pub(super) fn clock(&self) -> Clock {
        Clock {
            slow_mover: self.slow_mover,
            ..Clock::default()
        }
    }

    /// The budget the time settings give the next move of `player`, who has at most
    /// `moves_left` moves still to play (the game's bound) in sudden death.
    pub(super) fn clock_budget(&self, player: usize, moves_left: Option<u32>) -> Budget {
        let left = self.time_left[player];
        match self.time {
            TimeSystem::Unset => Budget::fixed(self.move_time, Duration::ZERO),
            TimeSystem::NoLimit => Budget::fixed(self.move_time, Duration::ZERO),
            TimeSystem::Absolute => {
                let remaining = left.map_or(self.main_time, |(t, _)| t);
                Budget::from_clock(
                    &Clock {
                        remaining,
                        moves_left,
                        ..self.clock()
                    },
                    self.overhead,
                )
            }
            TimeSystem::Canadian { period, stones } => match left {
                // In byo-yomi: `t` for the `s` stones still to play in this period.
                Some((t, s)) if s > 0 => Budget::from_clock(
                    &Clock {
                        remaining: t,
                        moves_to_go: Some(s),
                        ..self.clock()
                    },
                    self.overhead,
                ),
                other => {
                    let main = other.map_or(self.main_time, |(t, _)| t);
                    Budget::from_clock(
                        &canadian_main_time(main, period, stones, self.clock()),
                        self.overhead,
                    )
                }
            },
            TimeSystem::Byoyomi { period } => match left {
                // In byo-yomi (KGS reports periods left): the period's time is ours every move.
                Some((t, p)) if p > 0 => Budget::from_clock(
                    &Clock {
                        byoyomi: t.min(period),
                        ..self.clock()
                    },
                    self.overhead,
                ),
                other => Budget::from_clock(
                    &Clock {
                        remaining: other.map_or(self.main_time, |(t, _)| t),
                        byoyomi: period,
                        ..self.clock()
                    },
                    self.overhead,
                ),
            },
        }
    }

    pub(super) fn time_settings(&mut self, args: &[&str]) -> Result<String, String> {
        let n: Vec<u64> = args
            .iter()
            .map(|a| a.parse::<u64>())
            .collect::<Result<_, _>>()
            .map_err(|_| "syntax error")?;
        let [main, period, stones] = n[..] else {
            return Err("syntax error".to_string());
        };
        self.main_time = Duration::from_secs(main);
        self.time = match (period, stones) {
            (0, _) => TimeSystem::Absolute,
            (_, 0) => TimeSystem::NoLimit,
            (p, s) => TimeSystem::Canadian {
                period: Duration::from_secs(p),
                stones: s as u32,
            },
        };
        self.time_left = [None; MAX_PLAYERS];
        Ok(String::new())
    }

    pub(super) fn kgs_time_settings(&mut self, args: &[&str]) -> Result<String, String> {
        let num = |k: usize| -> Result<u64, String> {
            args.get(k)
                .and_then(|a| a.parse().ok())
                .ok_or("syntax error".to_string())
        };
        let system = args
            .first()
            .map(|s| s.to_ascii_lowercase())
            .unwrap_or_default();
        self.time = match system.as_str() {
            "none" => TimeSystem::NoLimit,
            "absolute" => {
                self.main_time = Duration::from_secs(num(1)?);
                TimeSystem::Absolute
            }
            "byoyomi" => {
                self.main_time = Duration::from_secs(num(1)?);
                num(3)?;
                TimeSystem::Byoyomi {
                    period: Duration::from_secs(num(2)?),
                }
            }
            "canadian" => {
                self.main_time = Duration::from_secs(num(1)?);
                TimeSystem::Canadian {
                    period: Duration::from_secs(num(2)?),
                    stones: num(3)? as u32,
                }
            }
            _ => return Err("syntax error".to_string()),
        };
        self.time_left = [None; MAX_PLAYERS];
        Ok(String::new())
    }

    pub(super) fn time_left(&mut self, args: &[&str]) -> Result<String, String> {
        let player = self.player_arg(args.first())?;
        let secs: f64 = args
            .get(1)
            .and_then(|t| t.parse::<f64>().ok())
            .filter(|t| t.is_finite())
            .ok_or("syntax error")?;
        // Anything beyond a year is as good as unlimited (and keeps the arithmetic finite).
        let secs = secs.clamp(0.0, 365.0 * 86_400.0);
        let stones: u32 = args
            .get(2)
            .and_then(|s| s.parse().ok())
            .ok_or("syntax error")?;
        self.time_left[player] = Some((Duration::from_secs_f64(secs), stones));
        Ok(String::new())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canadian_main_time_adds_the_overtime_share_of_a_stone() {
        let secs = Duration::from_secs;
        let overhead = Duration::from_millis(50);
        // 5 s of main time, then 10 s for every 20 stones: half a second a stone comes on top.
        let clock = canadian_main_time(secs(5), secs(10), 20, Clock::default());
        let with = Budget::from_clock(&clock, overhead);
        let without = Budget::from_clock(
            &Clock {
                remaining: secs(5),
                ..Clock::default()
            },
            overhead,
        );
        assert!(
            with.soft >= without.soft + Duration::from_millis(400),
            "{with:?}"
        );
        // Main time gone: the share of one stone, never more than the period can give.
        let late = Budget::from_clock(
            &canadian_main_time(Duration::ZERO, secs(10), 20, Clock::default()),
            overhead,
        );
        assert!(late.hard <= Duration::from_millis(500), "{late:?}");
        assert!(late.soft >= Duration::from_millis(400), "{late:?}");
    }
}
