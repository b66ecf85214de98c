//! Tests of a threaded run's selection: flights in the air and the edges they open.

use super::*;
use crate::game::connect4::ConnectFour;
use crate::game::Rules;
use crate::search::tests::params;

#[test]
fn a_flight_leaves_an_edge_another_thread_is_opening() {
    let mut s: Search<ConnectFour, 2> =
        Search::new(params("sb-gpn threads=2"), ConnectFour::start());
    s.run(&Limits {
        iterations: Some(3),
        ..Limits::default()
    });
    let opening = OpeningEdges::new();
    let (mut xs, mut terms) = (Vec::new(), Vec::new());
    // Two threads with the same tie-breaks: without the table they take the same edge.
    let mut flight = |opening: &OpeningEdges| {
        let mut rng = Rng::new(7);
        let mut scratch = SelectScratch::default();
        let f = s.select_flight(&mut rng, &mut xs, &mut terms, &mut scratch, opening);
        // Its virtual visits come off; its mark on the edge it opens stays.
        s.take_flight_off(f.node, f.virtual_top, None, &mut HeldStats::default());
        (f.node, f.open_edge.expect("a move without a node"))
    };
    let alone = flight(&OpeningEdges::new());
    assert_eq!(
        flight(&OpeningEdges::new()),
        alone,
        "same tie-breaks, same edge"
    );
    let first = flight(&opening);
    assert_eq!(first, alone);
    assert_eq!(
        opening.count(first.0, first.1),
        1,
        "the first flight's edge is marked"
    );
    let second = flight(&opening);
    assert_ne!(
        second, first,
        "the second flight took the edge the first is opening"
    );
    opening.close(first.0, first.1);
    assert_eq!(
        flight(&opening),
        first,
        "once it has landed, the edge is free again"
    );
}

#[test]
fn virtual_visits_skip_the_nodes_visited_most_and_come_off_again() {
    let mut s: Search<ConnectFour, 2> =
        Search::new(params("sb-gpn threads=2"), ConnectFour::start());
    s.run(&Limits {
        iterations: Some(64 * VIRTUAL_LOSS_MAX_VISITS as u64),
        ..Limits::default()
    });
    let (mut xs, mut terms) = (Vec::new(), Vec::new());
    let mut scratch = SelectScratch::default();
    let f = s.select_flight(
        &mut Rng::new(3),
        &mut xs,
        &mut terms,
        &mut scratch,
        &OpeningEdges::new(),
    );
    // The path from the root down to the flight's deepest node.
    let mut path = Vec::new();
    let mut id = f.node;
    while id != NONE {
        path.push(id);
        id = s.tree.node(id).parent;
    }
    path.reverse();
    assert!(path.len() > 2, "a path below the root's children");
    let busy = |id: NodeId| s.tree.node(id).visits.get() >= VIRTUAL_LOSS_MAX_VISITS;
    assert!(busy(path[1]), "the root child taken is past the limit");
    let top = path
        .iter()
        .position(|&id| id == f.virtual_top)
        .expect("the nodes near the frontier, visited seldom, hold one");
    for (k, &id) in path.iter().enumerate() {
        let expected = u32::from(k >= top);
        assert_eq!(s.tree.virtual_visits(id), expected, "depth {k}");
        if k > 0 && expected == 0 {
            assert!(busy(id), "depth {k}: skipped, so visited often");
        }
    }
    assert!(
        !busy(path[top]),
        "the first node holding one was visited less"
    );
    s.take_flight_off(f.node, f.virtual_top, None, &mut HeldStats::default());
    assert!(path.iter().all(|&id| s.tree.virtual_visits(id) == 0));
}
