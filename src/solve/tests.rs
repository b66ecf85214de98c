//! Every solver against a memoised exhaustive minimax on small positions.

use crate::game::Rules;
use std::collections::HashMap;

use super::*;
use crate::game::breakthrough::Breakthrough;
use crate::game::connect4::ConnectFour;
use crate::game::{Game, MoveList};
use crate::rng::Rng;

/// Exact value for the side to move (1 win, 0 draw, -1 loss), memoised by hash; `None` when
/// more than `budget` positions would be needed.
pub(crate) fn minimax<G: Game>(
    pos: &G,
    memo: &mut HashMap<u64, i8>,
    budget: &mut u64,
) -> Option<i8> {
    if let Some(o) = pos.outcome() {
        return Some(if o.is_draw() {
            0
        } else if o.winner() == Some(pos.to_move()) {
            1
        } else {
            -1
        });
    }
    if let Some(&v) = memo.get(&pos.hash()) {
        return Some(v);
    }
    if *budget == 0 {
        return None;
    }
    *budget -= 1;
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    let mut best = -1i8;
    for &m in moves.iter() {
        let mut c = pos.clone();
        c.play(m);
        let v = minimax(&c, memo, budget)?;
        let v = if c.to_move() == pos.to_move() { v } else { -v };
        best = best.max(v);
        if best == 1 {
            break;
        }
    }
    memo.insert(pos.hash(), best);
    Some(best)
}

fn value_of(v: i8) -> Value {
    match v {
        1 => Value::Win,
        0 => Value::Draw,
        _ => Value::Loss,
    }
}

/// Random non-terminal positions after `plies` random moves whose minimax fits `budget`.
fn positions<G: Game>(n: usize, plies: u32, seed: u64, budget: u64) -> Vec<(G, Value)> {
    let mut rng = Rng::new(seed);
    let mut buf = MoveList::new();
    let mut out = Vec::new();
    let mut tries = 0;
    while out.len() < n && tries < 50 * n {
        tries += 1;
        let mut p = G::start();
        let mut ok = true;
        for _ in 0..plies {
            match p.random_move(&mut rng, &mut buf) {
                Some(m) => p.play(m),
                None => {
                    ok = false;
                    break;
                }
            }
        }
        if !ok || p.outcome().is_some() {
            continue;
        }
        let mut b = budget;
        if let Some(v) = minimax(&p, &mut HashMap::new(), &mut b) {
            out.push((p, value_of(v)));
        }
    }
    out
}

fn config(algo: Algo) -> SolveConfig {
    SolveConfig {
        algo,
        max_nodes: Some(2_000_000),
        memory_mb: 64,
        playouts: 4,
        ..SolveConfig::default()
    }
}

fn check_all<G: Game>(cases: &[(G, Value)]) {
    check_algos(cases, &Algo::ALL, 1);
}

/// Every case solved by every algorithm of `algos` with `threads` threads: the value equals
/// minimax, and the move given with a win or a draw keeps it.
fn check_algos<G: Game>(cases: &[(G, Value)], algos: &[Algo], threads: usize) {
    for &algo in algos {
        for (p, want) in cases {
            // 16 MB per worker, so that every thread asked for runs.
            let cfg = SolveConfig {
                threads,
                memory_mb: 64.max(16 * threads),
                ..config(algo)
            };
            let r = solve(p, &cfg);
            assert_eq!(
                r.value,
                *want,
                "{} with {threads} threads on {} ({})",
                algo.name(),
                p.to_position(),
                r.proofs_text()
            );
            if matches!(r.value, Value::Win | Value::Draw) {
                let m = r.best_move.expect("a proven win or draw has a move");
                let mut c = p.clone();
                c.play(m);
                let mut b = u64::MAX;
                let v = minimax(&c, &mut HashMap::new(), &mut b).unwrap();
                let v = if c.to_move() == p.to_move() { v } else { -v };
                assert_eq!(value_of(v), *want, "{} best move", algo.name());
            }
        }
    }
}

#[test]
fn cfour_endgames_agree_with_minimax() {
    let cases: Vec<(ConnectFour, Value)> = positions(25, 28, 19, 200_000);
    assert!(cases.len() >= 20);
    assert!(cases.iter().any(|c| c.1 == Value::Draw), "want some draws");
    check_all(&cases);
}

#[test]
fn breakthrough6x6_endgames_agree_with_minimax() {
    let cases: Vec<(Breakthrough<6>, Value)> = positions(12, 24, 11, 300_000);
    assert!(cases.len() >= 5, "only {} cases", cases.len());
    check_all(&cases);
}

#[test]
fn draws_take_two_proofs() {
    let cases: Vec<(ConnectFour, Value)> = positions(40, 30, 8, 200_000);
    let draw = cases.iter().find(|c| c.1 == Value::Draw).expect("a draw");
    for algo in [Algo::Pns, Algo::Dfpn, Algo::Ppns, Algo::Mcpns] {
        let r = solve(&draw.0, &config(algo));
        assert_eq!(r.value, Value::Draw);
        assert_eq!(r.proofs.len(), 2);
        assert_eq!(r.proofs[0].result, Some(false));
        assert_eq!(r.proofs[1].result, Some(true));
        assert_eq!(r.proofs_text(), "win?=no not-loss?=yes");
    }
    let win = cases.iter().find(|c| c.1 == Value::Win).expect("a win");
    let r = solve(&win.0, &config(Algo::Dfpn));
    assert_eq!(r.proofs.len(), 1);
}

#[test]
fn tiny_memory_gives_unknown() {
    let start = ConnectFour::start();
    for algo in [Algo::Pns, Algo::Ppns, Algo::Mcpns] {
        let cfg = SolveConfig {
            algo,
            memory_mb: 1,
            playouts: 1,
            ..SolveConfig::default()
        };
        let r = solve(&start, &cfg);
        assert_eq!(r.value, Value::Unknown, "{}", algo.name());
        assert_eq!(r.proofs[0].stopped_by, Some("memory"));
        assert!(r.nodes <= (1 << 20) / 32 + 8);
    }
    // DFPN's table of 1 MB only slows it: the node limit stops it.
    let cfg = SolveConfig {
        algo: Algo::Dfpn,
        memory_mb: 1,
        max_nodes: Some(20_000),
        ..SolveConfig::default()
    };
    let r = solve(&start, &cfg);
    assert_eq!(r.value, Value::Unknown);
    assert_eq!(r.proofs[0].stopped_by, Some("nodes"));
    // sb-gpn recycles its tree when 1 MB is full (as DFPN overwrites its table): the node limit
    // stops it, well past what 1 MB holds at once.
    let cfg = SolveConfig {
        algo: Algo::SbGpn,
        memory_mb: 1,
        max_nodes: Some(100_000),
        ..SolveConfig::default()
    };
    let r = solve(&start, &cfg);
    assert_eq!(r.value, Value::Unknown);
    assert!(r.nodes >= 100_000, "{}", r.nodes);
}

#[test]
fn ppns_precision_rate_concludes_and_says_so() {
    let cases: Vec<(ConnectFour, Value)> = positions(10, 26, 5, 200_000);
    for (p, want) in &cases {
        let cfg = SolveConfig {
            algo: Algo::Ppns,
            pr: Some(0.001),
            theta: 0.001,
            ..config(Algo::Ppns)
        };
        let r = solve(p, &cfg);
        if r.by_pr {
            assert!(r.proofs.iter().any(|q| q.by_pr));
            assert!(r.proof_size.is_none());
        } else {
            assert_eq!(r.value, *want);
        }
    }
}

#[test]
fn dfpn_without_the_epsilon_trick_and_with_a_small_table_agrees() {
    let cases: Vec<(ConnectFour, Value)> = positions(15, 26, 9, 200_000);
    for eps in [0.0, 0.25] {
        for mb in [1, 64] {
            for (p, want) in &cases {
                let cfg = SolveConfig {
                    epsilon: eps,
                    memory_mb: mb,
                    ..config(Algo::Dfpn)
                };
                let r = solve(p, &cfg);
                assert_eq!(r.value, *want, "eps {eps} memory {mb}");
            }
        }
    }
}

#[test]
fn dfpn_proofs_in_one_reused_table_answer_each_question_alone() {
    // The questions of one table alternate between goals and between root players (a position,
    // then each of its children with the other side to move), so entries of one question meet
    // the others' lookups: only the per-question key salt keeps them apart. 1 MB makes full
    // buckets drop earlier proofs' entries.
    let cases: Vec<(ConnectFour, Value)> = positions(10, 24, 21, 200_000);
    let mut questions = Vec::new();
    let mut buf = MoveList::new();
    for (p, value) in &cases {
        questions.push((p.clone(), *value));
        p.legal_moves(&mut buf);
        for &m in buf.iter() {
            let mut c = p.clone();
            c.play(m);
            if c.outcome().is_none() {
                let mut b = u64::MAX;
                let v = minimax(&c, &mut HashMap::new(), &mut b).unwrap();
                questions.push((c, value_of(v)));
            }
        }
    }
    for mb in [1, 64] {
        let cfg = SolveConfig {
            memory_mb: mb,
            ..config(Algo::Dfpn)
        };
        let mut scratch = Scratch::default();
        for (i, (p, value)) in questions.iter().enumerate() {
            let goals = if i % 2 == 0 {
                [Goal::Win, Goal::NotLoss]
            } else {
                [Goal::NotLoss, Goal::Win]
            };
            for goal in goals {
                let mut budget = Budget::of(&cfg);
                let run = prove_in(p, goal, &cfg, &mut budget, &mut scratch);
                let want = match goal {
                    Goal::Win => *value == Value::Win,
                    Goal::NotLoss => *value != Value::Loss,
                };
                assert_eq!(
                    run.result,
                    Some(want),
                    "{} {} in a reused {mb} MB table",
                    goal.name(),
                    p.to_position()
                );
            }
        }
    }
}

/// Whether `me` wins from `pos` within `plies`, by plain exhaustive search (no tables).
fn wins_within<G: Game>(pos: &G, me: crate::game::Player, plies: u32) -> bool {
    if let Some(o) = pos.outcome() {
        return o.winner() == Some(me);
    }
    if plies == 0 {
        return false;
    }
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    let mine = pos.to_move() == me;
    let mut any = false;
    for &m in moves.iter() {
        let mut c = pos.clone();
        c.play(m);
        let w = wins_within(&c, me, plies - 1);
        if mine && w {
            return true;
        }
        if !mine && !w {
            return false;
        }
        any = true;
    }
    !mine && any
}

/// The shortest win of the side to move within `limit` plies, by exhaustive search.
fn shortest_win<G: Game>(pos: &G, limit: u32) -> Option<u32> {
    (1..=limit).find(|&d| wins_within(pos, pos.to_move(), d))
}

#[test]
fn mate_search_finds_the_shortest_win_and_a_line_that_reaches_it() {
    use super::mate::{mate_search, MateAnswer};
    // Late Connect Four positions: short wins, and exhaustive search stays cheap.
    let cases: Vec<(ConnectFour, Value)> = positions(25, 30, 21, 100_000);
    let mut mates = 0;
    for (p, _) in &cases {
        let want = shortest_win(p, 7);
        for algo in [Algo::Dfpn, Algo::Pns] {
            let r = mate_search(p, &config(algo), Some(4));
            match (&r.answer, want) {
                (MateAnswer::Mate { plies, pv }, Some(d)) => {
                    assert_eq!(*plies, Some(d), "{} {p:?}", algo.name());
                    assert_eq!(
                        pv.len() as u32,
                        d,
                        "{}: the line is the whole win",
                        algo.name()
                    );
                    let mut q = p.clone();
                    for &m in pv {
                        let mut legal = MoveList::new();
                        q.legal_moves(&mut legal);
                        assert!(legal.iter().any(|&l| l == m));
                        q.play(m);
                    }
                    assert_eq!(q.outcome().and_then(|o| o.winner()), Some(p.to_move()));
                    mates += 1;
                }
                (MateAnswer::NoMate, None) => {}
                (a, w) => panic!("{}: {a:?}, exhaustive search says {w:?}", algo.name()),
            }
        }
    }
    assert!(mates >= 10, "only {mates} mates among the cases");
}

#[test]
fn unbounded_mate_search_agrees_with_the_value() {
    use super::mate::{mate_search, MateAnswer};
    let cases: Vec<(ConnectFour, Value)> = positions(15, 24, 4, 200_000);
    for (p, want) in &cases {
        let r = mate_search(p, &config(Algo::Dfpn), None);
        match r.answer {
            MateAnswer::Mate { plies, .. } => {
                assert_eq!(*want, Value::Win);
                let d = plies.expect("a distance within the budget");
                assert!(wins_within(p, p.to_move(), d) && !wins_within(p, p.to_move(), d - 1));
            }
            MateAnswer::NoMate => assert_ne!(*want, Value::Win),
            MateAnswer::Unknown => panic!("unknown within 2M nodes"),
        }
    }
}

#[test]
fn a_raised_stop_flag_ends_a_solve_as_unknown() {
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;
    let stop = Arc::new(AtomicBool::new(true));
    for algo in Algo::ALL {
        let cfg = SolveConfig {
            algo,
            stop: Some(Arc::clone(&stop)),
            max_nodes: None,
            ..config(algo)
        };
        let r = solve(&ConnectFour::start(), &cfg);
        assert_eq!(r.value, Value::Unknown, "{}", algo.name());
    }
}

/// The proof-number solvers with 2 threads (the two questions side by side) and 3, 4 and 8 (the
/// questions split over the root moves), sb-gpn with the root moves' values as jobs, repeated:
/// timing decides which jobs run, never the value.
#[test]
fn parallel_proof_number_solving_agrees_with_minimax() {
    let cfour: Vec<(ConnectFour, Value)> = positions(16, 28, 19, 200_000);
    let bt: Vec<(Breakthrough<6>, Value)> = positions(6, 24, 11, 300_000);
    assert!(cfour.iter().any(|c| c.1 == Value::Draw), "want some draws");
    assert!(cfour.iter().any(|c| c.1 == Value::Loss), "want some losses");
    for threads in [2, 3, 4, 8] {
        check_algos(&cfour, &Algo::ALL, threads);
        check_algos(&bt, &[Algo::Dfpn, Algo::Pns, Algo::SbGpn], threads);
    }
    for _ in 0..5 {
        check_algos(&cfour, &[Algo::Dfpn], 4);
    }
}

#[test]
fn parallel_solving_reports_both_questions_and_its_limits() {
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;
    let cases: Vec<(ConnectFour, Value)> = positions(40, 30, 8, 200_000);
    let draw = &cases.iter().find(|c| c.1 == Value::Draw).expect("a draw").0;
    for threads in [2, 4] {
        let cfg = SolveConfig {
            threads,
            ..config(Algo::Dfpn)
        };
        let r = solve(draw, &cfg);
        assert_eq!(r.value, Value::Draw);
        assert_eq!(r.proofs_text(), "win?=no not-loss?=yes");
        assert_eq!(r.nodes, r.proofs[0].nodes + r.proofs[1].nodes);
        assert!(r.best_move.is_some());
    }
    // 16 MB cannot give 8 workers their 16 MB each: one thread solves it, exactly as ever.
    let small = SolveConfig {
        threads: 8,
        memory_mb: 16,
        ..config(Algo::Dfpn)
    };
    let r = solve(draw, &small);
    assert_eq!(r.value, Value::Draw);
    assert_eq!(r.proofs_text(), "win?=no not-loss?=yes");
    // Limits of the whole solve: nodes, time, the outside stop flag.
    let start = ConnectFour::start();
    for threads in [2, 4] {
        let nodes = SolveConfig {
            threads,
            max_nodes: Some(50_000),
            ..config(Algo::Dfpn)
        };
        let r = solve(&start, &nodes);
        assert_eq!(r.value, Value::Unknown);
        assert_eq!(r.stopped_by(&nodes), Some("nodes"));
        // Published every 1024 nodes per job, watched every few milliseconds.
        assert!(r.nodes >= 50_000 && r.nodes < 5_000_000, "{}", r.nodes);
        let time = SolveConfig {
            threads,
            max_nodes: None,
            max_time: Some(std::time::Duration::from_millis(200)),
            ..config(Algo::Dfpn)
        };
        let r = solve(&start, &time);
        assert_eq!(r.value, Value::Unknown);
        assert_eq!(r.stopped_by(&time), Some("time"));
        assert!(r.elapsed < std::time::Duration::from_secs(5));
        let stop = SolveConfig {
            threads,
            max_nodes: None,
            stop: Some(Arc::new(AtomicBool::new(true))),
            ..config(Algo::Dfpn)
        };
        let r = solve(&start, &stop);
        assert_eq!(r.value, Value::Unknown);
        assert_eq!(r.stopped_by(&stop), Some("stop"));
    }
}

/// sb-gpn with threads: the proven line starts with the move given and its length is the plies.
#[test]
fn parallel_sb_gpn_gives_a_proven_line() {
    let cases: Vec<(ConnectFour, Value)> = positions(12, 24, 1, 300_000);
    let mut checked = 0;
    for (p, want) in &cases {
        let cfg = SolveConfig {
            threads: 2,
            ..config(Algo::SbGpn)
        };
        let r = solve(p, &cfg);
        assert_eq!(r.value, *want, "{}", p.to_position());
        assert!(r.proofs.is_empty());
        assert_eq!(r.proofs_text(), "score-bounds");
        if r.nodes <= 20_000 {
            // Settled by the one-thread attempt (its own line).
            continue;
        }
        checked += 1;
        assert_eq!(
            r.pv.len() as u32,
            r.plies.expect("proven plies"),
            "{}",
            p.to_position()
        );
        if matches!(r.value, Value::Win | Value::Draw) {
            assert_eq!(r.pv.first().copied(), r.best_move);
        }
        // The line is legal from the position.
        let mut q = p.clone();
        for &m in &r.pv {
            let mut legal = MoveList::new();
            q.legal_moves(&mut legal);
            assert!(legal.iter().any(|&x| x == m));
            q.play(m);
        }
    }
    assert!(checked > 0, "no case needed the workers");
}

/// A network with random weights and proof-cost heads for `G`: advice as misleading as any.
fn random_pcn<G: Game>(seed: u64) -> crate::nn::NetworkFile {
    let shape = crate::nn::Shape {
        inputs: G::INPUTS,
        hidden: vec![24],
        policy: G::POLICY,
        cost: crate::nn::pcn::BINS,
    };
    let net = crate::nn::Network::new(G::INFO.name, shape, seed).unwrap();
    crate::nn::NetworkFile::new("random", net)
}

#[test]
fn a_network_changes_the_search_never_the_value() {
    use super::Pcn;
    let cases: Vec<(ConnectFour, Value)> = positions(12, 26, 19, 200_000);
    assert!(cases.len() >= 10);
    let net = random_pcn::<ConnectFour>(5);
    // Off with a value-head initialisation, both cost initialisations, focus on and off.
    for (pcn, eval_init, focus) in [
        (Pcn::Off, 4, 0.1),
        (Pcn::Off, 0, 0.0),
        (Pcn::Max, 0, 0.1),
        (Pcn::Heur, 0, 0.5),
        (Pcn::Heur, 0, 0.0),
    ] {
        for algo in [Algo::Dfpn, Algo::SbGpn, Algo::Pns] {
            for (p, want) in &cases {
                let cfg = SolveConfig {
                    network: Some(net.clone()),
                    pcn,
                    eval_init,
                    focus,
                    ..config(algo)
                };
                let r = solve(p, &cfg);
                assert_eq!(
                    r.value,
                    *want,
                    "{} {} focus {focus} on {}",
                    algo.name(),
                    pcn.name(),
                    p.to_position()
                );
            }
        }
    }
}

#[test]
fn the_four_threat_rule_never_changes_a_gomoku_value() {
    let mut rng = Rng::new(3);
    let mut buf = MoveList::new();
    let (mut known, mut pruned_faster) = (0, 0);
    let net = random_pcn::<crate::game::gomoku::Gomoku<false>>(8);
    // Positions a few plies before the end of random games: threats everywhere, and values
    // within reach of both searches (wins and losses for the side to move).
    for game in 0..40 {
        let mut line = vec![crate::game::gomoku::Gomoku::<false>::start()];
        while let Some(m) = line.last().unwrap().random_move(&mut rng, &mut buf) {
            let mut next = line.last().unwrap().clone();
            next.play(m);
            let over = next.outcome().is_some();
            line.push(next);
            if over {
                break;
            }
        }
        let back = 2 + game % 6;
        let Some(p) = line.len().checked_sub(1 + back).map(|i| line[i].clone()) else {
            continue;
        };
        if p.outcome().is_some() {
            continue;
        }
        let cfg = SolveConfig {
            max_nodes: Some(300_000),
            memory_mb: 16,
            ..SolveConfig::default()
        };
        let plain = solve(&p, &cfg);
        let forced = solve(
            &p,
            &SolveConfig {
                forcing: true,
                ..cfg.clone()
            },
        );
        let focused = solve(
            &p,
            &SolveConfig {
                forcing: true,
                network: Some(net.clone()),
                pcn: super::Pcn::Heur,
                ..cfg.clone()
            },
        );
        let mcts = solve(
            &p,
            &SolveConfig {
                forcing: true,
                algo: Algo::SbGpn,
                ..cfg.clone()
            },
        );
        let mcts_pcn = solve(
            &p,
            &SolveConfig {
                forcing: true,
                algo: Algo::SbGpn,
                network: Some(net.clone()),
                pcn: super::Pcn::Max,
                ..cfg.clone()
            },
        );
        let pns = solve(
            &p,
            &SolveConfig {
                forcing: true,
                algo: Algo::Pns,
                network: Some(net.clone()),
                pcn: super::Pcn::Heur,
                ..cfg.clone()
            },
        );
        for r in [&forced, &focused, &mcts, &mcts_pcn, &pns] {
            if plain.value != Value::Unknown && r.value != Value::Unknown {
                assert_eq!(plain.value, r.value, "{}", p.to_position());
                known += 1;
            }
        }
        pruned_faster += usize::from(forced.nodes < plain.nodes);
    }
    assert!(known >= 20, "only {known} comparisons");
    assert!(
        pruned_faster >= 10,
        "4T pruned in {pruned_faster} positions"
    );
}

/// The paranoid value of `pos` for `me` by exhaustive search, the players other than `me`
/// choosing together against it: `me` maximises `score` of the final outcome, the others
/// minimise it.
pub(crate) fn paranoid<G: Game, T: Ord + Copy>(
    pos: &G,
    me: crate::game::Player,
    score: &impl Fn(&crate::game::Outcome) -> T,
    memo: &mut HashMap<u64, T>,
) -> T {
    if let Some(o) = pos.outcome() {
        return score(&o);
    }
    if let Some(&v) = memo.get(&pos.hash()) {
        return v;
    }
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    let values = moves.iter().map(|&m| {
        let mut child = pos.clone();
        child.play(m);
        paranoid(&child, me, score, memo)
    });
    let v = if pos.to_move() == me {
        values.max()
    } else {
        values.min()
    }
    .expect("a position that is not over has a move");
    memo.insert(pos.hash(), v);
    v
}

/// The start of `G` after `plies` random moves (Rolit: placements, which never end the game
/// before the board is full).
fn random_placements<G: Game>(plies: u32, rng: &mut Rng) -> G {
    let mut buf = MoveList::new();
    let mut p = G::start();
    for _ in 0..plies {
        let m = p.random_move(rng, &mut buf).expect("not over yet");
        p.play(m);
    }
    p
}

/// 1 for a sole first place of `me`, 0 for a shared one, -1 for neither.
fn first_place(me: crate::game::Player) -> impl Fn(&crate::game::Outcome) -> i8 {
    move |o| {
        if o.winner() == Some(me) {
            1
        } else if o.rank(me) == 0 {
            0
        } else {
            -1
        }
    }
}

/// Every one-thread solver (sb-gpn too) against the exhaustive paranoid search on Rolit positions of `G`
/// with `empty` empty squares left (the start when it has that many), for every player as the
/// prover. Returns how many (position, player) pairs had each value (loss, draw, win).
fn check_paranoid<G: Game>(empty: u32, squares: u32, games: u64) -> [usize; 3] {
    let mut rng = Rng::new(squares as u64 * 31 + G::NUM_PLAYERS as u64);
    let mut values = [0usize; 3];
    for _ in 0..games {
        let p: G = random_placements(squares - 4 - empty, &mut rng);
        // Every player as the prover: the side to move, and the others with the root an AND
        // node (`--player`), where no best move is given.
        for me in (0..G::NUM_PLAYERS).map(|i| crate::game::Player(i as u8)) {
            let truth = paranoid(&p, me, &first_place(me), &mut HashMap::new());
            values[(truth + 1) as usize] += 1;
            let want = [Value::Loss, Value::Draw, Value::Win][(truth + 1) as usize];
            let movers = me == p.to_move();
            // sb-gpn through the paranoid two-player adapter (its score bounds), the others
            // with the coalition built in.
            for algo in Algo::ALL {
                let cfg = SolveConfig {
                    prover: (!movers).then_some(me),
                    ..config(algo)
                };
                let r = solve(&p, &cfg);
                let text = p.to_position();
                assert_eq!(
                    r.value,
                    want,
                    "{} {} on {text} for {me:?}",
                    G::INFO.name,
                    algo.name()
                );
                if !movers {
                    assert_eq!(r.best_move, None, "{}", algo.name());
                }
                if let Some(m) = r.best_move.filter(|_| want != Value::Loss) {
                    let mut after = p.clone();
                    after.play(m);
                    let value = paranoid(&after, me, &first_place(me), &mut HashMap::new());
                    assert_eq!(value, truth, "{}", algo.name());
                }
            }
        }
    }
    values
}

#[test]
fn paranoid_proofs_of_three_and_four_player_rolit_match_an_exhaustive_search() {
    use crate::game::rolit::Rolit;
    let mut seen = [0usize; 3];
    let mut add = |v: [usize; 3]| (0..3).for_each(|i| seen[i] += v[i]);
    // The 4x4 boards from the start (the whole game) and after a few random placements.
    add(check_paranoid::<Rolit<4, 3>>(12, 16, 1));
    add(check_paranoid::<Rolit<4, 4>>(12, 16, 1));
    add(check_paranoid::<Rolit<4, 3>>(8, 16, 30));
    add(check_paranoid::<Rolit<4, 4>>(8, 16, 30));
    // 6x6 endgames.
    add(check_paranoid::<Rolit<6, 3>>(9, 36, 10));
    add(check_paranoid::<Rolit<6, 4>>(9, 36, 10));
    // Every kind of value was checked, each more than once.
    assert!(seen.iter().all(|&n| n >= 2), "loss / draw / win: {seen:?}");
}

/// With threads, paranoid solves go through the split of the root's questions, in which the
/// coalition often moves again after a root move (the child's question is then the root
/// player's own): the values of the one-thread solver, for every player as the prover, on 6x6
/// Rolit positions large enough that the split runs (past the one-thread warm-up).
#[test]
fn parallel_paranoid_solving_agrees_with_one_thread() {
    use crate::game::rolit::Rolit;
    let mut rng = Rng::new(69);
    let mut split = 0;
    let mut checked = 0;
    let mut values = [0usize; 3];
    for empty in [32, 24, 22, 22, 20, 20, 18, 18] {
        let p: Rolit<6, 4> = random_placements(32 - empty, &mut rng);
        for me in (0..4).map(crate::game::Player) {
            let prover = (me != p.to_move()).then_some(me);
            let one = solve(
                &p,
                &SolveConfig {
                    prover,
                    ..config(Algo::Dfpn)
                },
            );
            assert_ne!(one.value, Value::Unknown, "{}", p.to_position());
            if one.nodes > 400_000 {
                // Keep the test quick: PNS would need millions of nodes here.
                continue;
            }
            checked += 1;
            values[[Value::Loss, Value::Draw, Value::Win]
                .iter()
                .position(|&v| v == one.value)
                .expect("known")] += 1;
            for (algo, threads) in [(Algo::Pns, 3), (Algo::Dfpn, 2), (Algo::SbGpn, 2)] {
                let cfg = SolveConfig {
                    prover,
                    threads,
                    memory_mb: 16 * threads,
                    ..config(algo)
                };
                let r = solve(&p, &cfg);
                let text = p.to_position();
                assert_eq!(
                    r.value,
                    one.value,
                    "{algo:?} x{threads} on {text} for {me:?}: {} {:?} {} nodes (one thread {})",
                    r.proofs_text(),
                    r.stopped_by(&cfg),
                    r.nodes,
                    one.nodes
                );
                if prover.is_some() {
                    assert_eq!(r.best_move, None);
                } else if let Some(m) = r.best_move {
                    // The move keeps the value: the coalition cannot do better after it.
                    let mut after = p.clone();
                    after.play(m);
                    let rest = solve(
                        &after,
                        &SolveConfig {
                            prover: (after.to_move() != me).then_some(me),
                            ..config(Algo::Dfpn)
                        },
                    );
                    assert_eq!(rest.value, r.value, "{algo:?} x{threads} on {text}: {m:?}");
                }
                split += usize::from(r.nodes > super::parallel::WARM_NODES);
            }
        }
    }
    assert!(
        checked >= 16 && split >= 10,
        "{checked} solves, the split ran {split} times"
    );
    eprintln!("values loss/draw/win {values:?}, {checked} solves, the split ran {split} times");
}

/// The split itself (no one-thread warm-up) on the paranoid game of small Rolit positions,
/// whose values are won, drawn and lost, against the exhaustive paranoid search.
#[test]
fn the_split_of_paranoid_solves_matches_an_exhaustive_search() {
    use super::paranoid::Paranoid;
    use crate::game::rolit::Rolit;
    fn check<G: Game>(empty: u32, squares: u32, games: u64, seen: &mut [usize; 3]) {
        let mut rng = Rng::new(squares as u64 * 7 + G::NUM_PLAYERS as u64);
        for _ in 0..games {
            let p: G = random_placements(squares - 4 - empty, &mut rng);
            for me in (0..G::NUM_PLAYERS).map(|i| crate::game::Player(i as u8)) {
                // The split answers for the side to move of the paranoid game.
                let game = Paranoid::new(p.clone(), me);
                let mover = game.to_move() == crate::game::Player(0);
                let truth = paranoid(&p, me, &first_place(me), &mut HashMap::new());
                let truth = if mover { truth } else { -truth };
                seen[(truth + 1) as usize] += 1;
                let want = [Value::Loss, Value::Draw, Value::Win][(truth + 1) as usize];
                for (algo, threads) in [(Algo::Pns, 3), (Algo::Dfpn, 4), (Algo::SbGpn, 2)] {
                    let cfg = SolveConfig {
                        threads,
                        memory_mb: 16 * threads,
                        ..config(algo)
                    };
                    let start = std::time::Instant::now();
                    let r = super::parallel::split(&game, &cfg, start, 0);
                    let text = p.to_position();
                    assert_eq!(r.value, want, "{algo:?} x{threads} on {text} for {me:?}");
                    if let Some(m) = r.best_move {
                        let mut after = game.clone();
                        after.play(m);
                        let v =
                            paranoid(&after.position, me, &first_place(me), &mut HashMap::new());
                        assert_eq!(if mover { v } else { -v }, truth, "{algo:?} on {text}");
                    }
                }
            }
        }
    }
    let mut seen = [0usize; 3];
    check::<Rolit<4, 3>>(8, 16, 12, &mut seen);
    check::<Rolit<4, 4>>(8, 16, 12, &mut seen);
    check::<Rolit<6, 3>>(9, 36, 4, &mut seen);
    // Every kind of value, for the side to move of the paranoid game.
    assert!(seen.iter().all(|&n| n >= 2), "loss / draw / win: {seen:?}");
}

/// A two-player solve for the player not to move: every solver, with threads too, answers
/// the side to move's value turned round, and no move (it is the opponent's).
#[test]
fn the_player_not_to_move_gets_the_value_turned_round() {
    let cases: Vec<(ConnectFour, Value)> = positions(6, 26, 9, 300_000);
    for (p, want) in &cases {
        let turned = match want {
            Value::Win => Value::Loss,
            Value::Loss => Value::Win,
            v => *v,
        };
        let other = p.to_move().next(2);
        for (algo, threads) in [(Algo::SbGpn, 1), (Algo::SbGpn, 2), (Algo::Dfpn, 3)] {
            let cfg = SolveConfig {
                prover: Some(other),
                threads,
                ..config(algo)
            };
            let r = solve(p, &cfg);
            assert_eq!(
                r.value,
                turned,
                "{algo:?} x{threads} on {}",
                p.to_position()
            );
            assert_eq!(r.best_move, None);
            // The proofs are the prover's: a loss has its "not-loss?" disproved, a win its
            // "win?" proven.
            let has = |goal, result| {
                r.proofs
                    .iter()
                    .any(|q| q.goal == goal && q.result == Some(result))
            };
            match (algo, turned) {
                (Algo::SbGpn, _) => assert!(r.proofs.is_empty()),
                (_, Value::Loss) => assert!(has(Goal::NotLoss, false), "{}", r.proofs_text()),
                (_, Value::Win) => assert!(has(Goal::Win, true), "{}", r.proofs_text()),
                _ => assert!(has(Goal::NotLoss, true), "{}", r.proofs_text()),
            }
        }
    }
}

#[test]
fn dfpn_ordered_and_weighed_by_go_priors_agrees_with_exhaustive_search() {
    use crate::game::go::KillallGo7;
    // Late random Killall-Go positions, asked "does the side to move win within 4 plies?" (Go's
    // games may cycle, so the check is bounded exhaustive search, not minimax).
    const PLIES: u32 = 4;
    let mut rng = Rng::new(21);
    let mut buf = MoveList::new();
    let (mut wins, mut others, mut changed) = (0, 0, false);
    for game in 0..60 {
        let mut p = KillallGo7::start();
        for _ in 0..40 + game {
            match p.random_move(&mut rng, &mut buf) {
                Some(m) if p.outcome().is_none() => p.play(m),
                _ => break,
            }
        }
        if p.outcome().is_some() {
            continue;
        }
        let want = wins_within(&p, p.to_move(), PLIES);
        let mut nodes = Vec::new();
        for (prior_init, mobility) in [(0, false), (4, false), (4, true), (64, true)] {
            let cfg = SolveConfig {
                prior_init,
                mobility,
                max_plies: Some(PLIES),
                ..config(Algo::Dfpn)
            };
            let r = solve(&p, &cfg);
            assert_eq!(
                r.value == Value::Win,
                want,
                "prior_init {prior_init} on {}",
                p.to_position()
            );
            nodes.push(r.nodes);
        }
        changed |= nodes[0] != nodes[1];
        if want {
            wins += 1;
        } else {
            others += 1;
        }
    }
    assert!(wins >= 3 && others >= 3, "{wins} wins, {others} others");
    // The priors took part: some search took another path.
    assert!(changed);
}
