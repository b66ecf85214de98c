//! The node and edge arenas: bump allocation under a byte budget, and re-rooting by copying the
//! kept subtree (Cheney's breadth-first copy), so memory never grows over a game.

use super::node::{Edge, Node, NodeId, NONE};
use crate::game::Move;

/// The search tree of a game of `P` players. Node 0 is the root.
pub struct Tree<const P: usize> {
    nodes: Vec<Node<P>>,
    edges: Vec<Edge>,
    /// The arenas of the next re-rooting, kept to reuse their allocations.
    spare_nodes: Vec<Node<P>>,
    spare_edges: Vec<Edge>,
    budget_bytes: usize,
    full: bool,
}

impl<const P: usize> Tree<P> {
    pub const NODE_BYTES: usize = std::mem::size_of::<Node<P>>();
    pub const EDGE_BYTES: usize = std::mem::size_of::<Edge>();

    /// An empty tree that will never hold more than `budget_bytes` of nodes and edges.
    /// `branching` (the expected moves per node) sizes the initial reservations.
    pub fn new(budget_bytes: usize, branching: usize) -> Tree<P> {
        let per_node = Self::NODE_BYTES + Self::EDGE_BYTES * branching.max(1);
        let nodes = (budget_bytes / per_node).max(16);
        // Reserve a modest start; the vectors grow (amortised) up to the budget.
        let reserve = nodes.min(1 << 16);
        Tree {
            nodes: Vec::with_capacity(reserve),
            edges: Vec::with_capacity(reserve * branching.max(1)),
            spare_nodes: Vec::new(),
            spare_edges: Vec::new(),
            budget_bytes: budget_bytes.max(Self::NODE_BYTES + Self::EDGE_BYTES * 1024),
            full: false,
        }
    }

    /// Removes every node.
    pub fn clear(&mut self) {
        self.nodes.clear();
        self.edges.clear();
        self.full = false;
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Bytes of nodes and edges in use.
    pub fn used_bytes(&self) -> usize {
        self.nodes.len() * Self::NODE_BYTES + self.edges.len() * Self::EDGE_BYTES
    }

    pub fn budget_bytes(&self) -> usize {
        self.budget_bytes
    }

    /// True once an allocation was refused: the search keeps running on the existing tree.
    pub fn is_full(&self) -> bool {
        self.full
    }

    /// Adds a node with one edge per move; `None` (and the tree marked full) when the budget
    /// would be exceeded.
    pub fn add(&mut self, mut node: Node<P>, moves: &[Move]) -> Option<NodeId> {
        let need = Self::NODE_BYTES + Self::EDGE_BYTES * moves.len();
        if self.used_bytes() + need > self.budget_bytes || self.nodes.len() >= NONE as usize {
            self.full = true;
            return None;
        }
        node.first_edge = self.edges.len() as u32;
        node.num_edges = moves.len() as u16;
        self.edges.extend(moves.iter().map(|&m| Edge::new(m)));
        self.nodes.push(node);
        Some((self.nodes.len() - 1) as NodeId)
    }

    #[inline]
    pub fn node(&self, id: NodeId) -> &Node<P> {
        &self.nodes[id as usize]
    }

    #[inline]
    pub fn node_mut(&mut self, id: NodeId) -> &mut Node<P> {
        &mut self.nodes[id as usize]
    }

    /// The edges of node `id`.
    #[inline]
    pub fn edges(&self, id: NodeId) -> &[Edge] {
        let n = &self.nodes[id as usize];
        &self.edges[n.first_edge as usize..n.first_edge as usize + n.num_edges as usize]
    }

    #[inline]
    pub fn edges_mut(&mut self, id: NodeId) -> &mut [Edge] {
        let n = &self.nodes[id as usize];
        let range = n.first_edge as usize..n.first_edge as usize + n.num_edges as usize;
        &mut self.edges[range]
    }

    /// Both the node and its edges (for code that reads one while writing the other).
    #[inline]
    pub fn node_and_edges_mut(&mut self, id: NodeId) -> (&mut Node<P>, &mut [Edge]) {
        let n = &self.nodes[id as usize];
        let range = n.first_edge as usize..n.first_edge as usize + n.num_edges as usize;
        (&mut self.nodes[id as usize], &mut self.edges[range])
    }

    /// Every node (read-only) and the edges of node `id` (writable): for passes that update edges
    /// from the children's values.
    #[inline]
    pub fn nodes_and_edges_mut(&mut self, id: NodeId) -> (&[Node<P>], &mut [Edge]) {
        let n = &self.nodes[id as usize];
        let range = n.first_edge as usize..n.first_edge as usize + n.num_edges as usize;
        (&self.nodes, &mut self.edges[range])
    }

    /// Makes `new_root` the root, keeping its subtree (statistics, proofs and bounds) and
    /// reclaiming everything else. Cost: proportional to the kept subtree.
    pub fn reroot(&mut self, new_root: NodeId) {
        let mut nodes = std::mem::take(&mut self.spare_nodes);
        let mut edges = std::mem::take(&mut self.spare_edges);
        nodes.clear();
        edges.clear();
        let mut root = self.nodes[new_root as usize];
        root.parent = NONE;
        nodes.push(root);
        // Breadth-first: `scan` walks the copied nodes, copying their edges and children.
        let mut scan = 0;
        while scan < nodes.len() {
            let old = nodes[scan];
            let first = edges.len() as u32;
            let range = old.first_edge as usize..old.first_edge as usize + old.num_edges as usize;
            for edge in &self.edges[range] {
                let mut copy = *edge;
                if edge.child != NONE {
                    let mut child = self.nodes[edge.child as usize];
                    child.parent = scan as NodeId;
                    copy.child = nodes.len() as NodeId;
                    nodes.push(child);
                }
                edges.push(copy);
            }
            nodes[scan].first_edge = first;
            scan += 1;
        }
        self.spare_nodes = std::mem::replace(&mut self.nodes, nodes);
        self.spare_edges = std::mem::replace(&mut self.edges, edges);
        self.spare_nodes.clear();
        self.spare_edges.clear();
        self.full = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(n: u16) -> Vec<Move> {
        (0..n).map(Move).collect()
    }

    #[test]
    fn budget_is_never_exceeded() {
        let budget = 64 * 1024;
        let mut tree: Tree<2> = Tree::new(budget, 10);
        let mut added = 0;
        while tree.add(Node::new(NONE, 0), &moves(10)).is_some() {
            added += 1;
            assert!(tree.used_bytes() <= budget);
        }
        assert!(tree.is_full());
        assert!(added > 100);
    }

    #[test]
    fn reroot_keeps_the_subtree_and_drops_the_rest() {
        let mut tree: Tree<2> = Tree::new(1 << 20, 3);
        let root = tree.add(Node::new(NONE, 0), &moves(3)).unwrap();
        let a = tree.add(Node::new(root, 1), &moves(2)).unwrap();
        let b = tree.add(Node::new(root, 1), &moves(2)).unwrap();
        tree.edges_mut(root)[0].child = a;
        tree.edges_mut(root)[2].child = b;
        let a0 = tree.add(Node::new(a, 0), &moves(1)).unwrap();
        tree.edges_mut(a)[1].child = a0;
        tree.node_mut(a).visits = 7;
        tree.node_mut(a0).visits = 3;
        tree.reroot(a);
        assert_eq!(tree.len(), 2);
        assert_eq!(tree.node(0).visits, 7);
        assert_eq!(tree.node(0).parent, NONE);
        let child = tree.edges(0)[1].child;
        assert_eq!(tree.edges(0)[0].child, NONE);
        assert_eq!(tree.node(child).visits, 3);
        assert_eq!(tree.node(child).parent, 0);
        assert_eq!(tree.edges(0)[1].mv, Move(1));
        assert_eq!(
            tree.used_bytes(),
            2 * Tree::<2>::NODE_BYTES + 3 * Tree::<2>::EDGE_BYTES
        );
    }
}
