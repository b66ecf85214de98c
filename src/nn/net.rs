//! The network: shape, flat weights, the search's forward pass and the binary file format.

use std::fmt;
use std::io::{self, Read, Write};
use std::path::Path;

use crate::rng::Rng;

/// File magic and the format version this build reads and writes.
const MAGIC: &[u8; 4] = b"GPNN";
/// Version 2 adds the proof-cost heads' bin count; a network without them is written as
/// version 1, which every gpn since the format began reads.
const VERSION: u32 = 2;

/// Guards against absurd sizes in a corrupt or foreign file before anything is allocated.
const MAX_WIDTH: usize = 1 << 16;
/// At most this many parameters (1 GiB of weights): widths within [`MAX_WIDTH`] can still
/// multiply to more than any machine holds, and a header alone must never cost that.
const MAX_PARAMS: u64 = 1 << 28;
const MAX_LAYERS: usize = 8;

/// The value head's verdict for the side to move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Wdl {
    pub win: f32,
    pub draw: f32,
    pub loss: f32,
}

impl Wdl {
    /// The expected result in [-1, 1]: win minus loss.
    pub fn value(&self) -> f32 {
        self.win - self.loss
    }
}

/// Layer widths: `inputs` binary features, the trunk's hidden layers (ReLU), and the policy's
/// number of outputs; the value head has three (win, draw, loss). `cost`: 0, or the bins of
/// each of the two proof-cost heads ([`super::pcn::BINS`]; one layer of twice that many
/// outputs, the side to move's cost first).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shape {
    pub inputs: usize,
    pub hidden: Vec<usize>,
    pub policy: usize,
    pub cost: usize,
}

/// Where one dense layer lives in the flat parameter vector: `inputs` rows of `outputs`
/// weights (row `i` holds input `i`'s weights to every output, so a sparse input adds one
/// contiguous row), then `outputs` biases.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layer {
    pub inputs: usize,
    pub outputs: usize,
    pub w: usize,
    pub b: usize,
}

impl Shape {
    /// The dense layers in order: the trunk, then the value head, the policy head and the
    /// cost heads where there are.
    pub fn layers(&self) -> Vec<Layer> {
        let mut out = Vec::new();
        let mut at = 0;
        let mut push = |inputs: usize, outputs: usize| {
            out.push(Layer {
                inputs,
                outputs,
                w: at,
                b: at + inputs * outputs,
            });
            at += inputs * outputs + outputs;
        };
        let mut width = self.inputs;
        for &h in &self.hidden {
            push(width, h);
            width = h;
        }
        push(width, 3);
        push(width, self.policy);
        if self.cost > 0 {
            push(width, 2 * self.cost);
        }
        out
    }

    /// Number of parameters.
    pub fn params(&self) -> usize {
        self.layers().last().map_or(0, |l| l.b + l.outputs)
    }

    /// Width of the last trunk layer (the heads' input).
    pub fn top(&self) -> usize {
        self.hidden.last().copied().unwrap_or(self.inputs)
    }

    fn check(&self) -> Result<(), NetworkError> {
        let widths = std::iter::once(self.inputs)
            .chain(self.hidden.iter().copied())
            .chain(std::iter::once(self.policy));
        if self.hidden.is_empty() || self.hidden.len() > MAX_LAYERS {
            return Err(NetworkError::Format(format!(
                "1 to {MAX_LAYERS} hidden layers, not {}",
                self.hidden.len()
            )));
        }
        if self.cost != 0 && self.cost != super::pcn::BINS {
            return Err(NetworkError::Format(format!(
                "{} cost bins (this gpn knows 0 and {})",
                self.cost,
                super::pcn::BINS
            )));
        }
        for w in widths {
            if w == 0 || w > MAX_WIDTH {
                return Err(NetworkError::Format(format!(
                    "layer width {w} out of 1..={MAX_WIDTH}"
                )));
            }
        }
        // Counted in u64 from the checked widths, so the sum cannot overflow.
        let mut params = 0u64;
        let mut width = self.inputs as u64;
        for &h in &self.hidden {
            params += (width + 1) * h as u64;
            width = h as u64;
        }
        params += (width + 1) * (3 + self.policy as u64 + 2 * self.cost as u64);
        if params > MAX_PARAMS {
            return Err(NetworkError::Format(format!(
                "{params} parameters, more than the {MAX_PARAMS} this gpn accepts"
            )));
        }
        Ok(())
    }
}

/// Why a network could not be read.
#[derive(Debug)]
pub enum NetworkError {
    Io(io::Error),
    /// Not a gpn network, an unknown version, or inconsistent contents.
    Format(String),
}

impl fmt::Display for NetworkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetworkError::Io(e) => write!(f, "{e}"),
            NetworkError::Format(m) => write!(f, "not a usable gpn network: {m}"),
        }
    }
}

impl std::error::Error for NetworkError {}

impl From<io::Error> for NetworkError {
    fn from(e: io::Error) -> Self {
        NetworkError::Io(e)
    }
}

/// A multilayer perceptron for one game (its name is checked when a network is loaded for a
/// game).
#[derive(Clone, Debug)]
pub struct Network {
    game: String,
    shape: Shape,
    layers: Vec<Layer>,
    params: Vec<f32>,
    /// The policy head's weights again, move-major (row `p`: output `p`'s weight from every top
    /// activation), so that a move's logit reads one contiguous row instead of a column strided
    /// by the policy's width (1,375 floats in minishogi). Built when a network is made or read;
    /// emptied by [`Network::params_mut`] (the trainer's writes), when [`Network::policy`] reads
    /// the columns instead.
    policy_rows: Vec<f32>,
}

/// Networks are equal when their games, shapes and parameters are (the move-major copy is
/// derived).
impl PartialEq for Network {
    fn eq(&self, other: &Network) -> bool {
        self.game == other.game && self.shape == other.shape && self.params == other.params
    }
}

/// Per-thread buffers of the forward pass (no allocation once warm).
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    /// Each trunk layer's activations, then the value head's three logits.
    acts: Vec<Vec<f32>>,
}

impl Network {
    /// A network of `shape` for `game`, with random weights (uniform, He's scale for ReLU
    /// layers) drawn from `seed`, and zero biases.
    pub fn new(game: &str, shape: Shape, seed: u64) -> Result<Network, NetworkError> {
        shape.check()?;
        let layers = shape.layers();
        let mut params = vec![0.0f32; shape.params()];
        let mut rng = Rng::new(seed);
        for l in &layers {
            let bound = (6.0 / l.inputs as f64).sqrt();
            for w in &mut params[l.w..l.b] {
                *w = ((rng.unit_f64() * 2.0 - 1.0) * bound) as f32;
            }
        }
        Ok(Network {
            game: game.to_string(),
            shape,
            layers,
            params,
            policy_rows: Vec::new(),
        }
        .with_policy_rows())
    }

    pub fn game(&self) -> &str {
        &self.game
    }

    /// Whether this network is for `game` with its encoding of `inputs` features and `policy`
    /// outputs; the error says what differs.
    pub fn check_fits(&self, game: &str, inputs: usize, policy: usize) -> Result<(), String> {
        if self.game != game {
            Err(format!("it is for {}, not {game}", self.game))
        } else if self.shape.inputs != inputs || self.shape.policy != policy {
            Err(format!(
                "{} inputs and {} policy outputs, but {game}'s encoding has {inputs} and {policy}",
                self.shape.inputs, self.shape.policy
            ))
        } else {
            Ok(())
        }
    }

    pub fn shape(&self) -> &Shape {
        &self.shape
    }

    pub fn params(&self) -> &[f32] {
        &self.params
    }

    /// The parameters to change (the move-major policy copy is dropped; [`Network::read`] and
    /// [`Network::with_policy_rows`] make it again).
    pub fn params_mut(&mut self) -> &mut [f32] {
        self.policy_rows.clear();
        &mut self.params
    }

    /// This network with its move-major copy of the policy head made.
    pub fn with_policy_rows(mut self) -> Network {
        let head = self.layers[self.shape.hidden.len() + 1];
        self.policy_rows.clear();
        for p in 0..head.outputs {
            let column = (0..head.inputs).map(|i| self.params[head.w + i * head.outputs + p]);
            self.policy_rows.extend(column);
        }
        self
    }

    /// Dense layer `k` (trunk layers first, then the value head, the policy head and the cost
    /// heads).
    pub fn layer(&self, k: usize) -> Layer {
        self.layers[k]
    }

    /// Number of dense layers.
    pub fn depth(&self) -> usize {
        self.layers.len()
    }

    /// Whether the network has proof-cost heads.
    pub fn has_costs(&self) -> bool {
        self.shape.cost > 0
    }

    /// After [`Network::evaluate`] of a position, the proof costs its cost heads predict: for
    /// the side to move to prove its win, and for the opponent ([`super::pcn::decode`]);
    /// `None` without cost heads.
    pub fn costs(&self, scratch: &Scratch, logits: &mut Vec<f32>) -> Option<[f32; 2]> {
        if !self.has_costs() {
            return None;
        }
        let trunk = self.shape.hidden.len();
        let head = self.layers[trunk + 2];
        dense(&self.params, head, &scratch.acts[trunk - 1], logits);
        let bins = self.shape.cost;
        let (own, other) = logits.split_at_mut(bins);
        softmax(own);
        softmax(other);
        Some([super::pcn::decode(own), super::pcn::decode(other)])
    }

    /// The value of a position given by its active `features`; leaves the trunk's output in
    /// `scratch` for [`Network::policy`].
    pub fn evaluate(&self, features: &[u16], scratch: &mut Scratch) -> Wdl {
        let trunk = self.shape.hidden.len();
        scratch.acts.resize_with(trunk + 1, Vec::new);
        // First layer: the bias plus one weight row per active feature.
        let first = self.layers[0];
        let acc = &mut scratch.acts[0];
        acc.clear();
        acc.extend_from_slice(&self.params[first.b..first.b + first.outputs]);
        for &f in features {
            let row = first.w + f as usize * first.outputs;
            for (a, w) in acc.iter_mut().zip(&self.params[row..row + first.outputs]) {
                *a += w;
            }
        }
        relu(acc);
        for k in 1..=trunk {
            let (done, rest) = scratch.acts.split_at_mut(k);
            dense(&self.params, self.layers[k], &done[k - 1], &mut rest[0]);
            if k < trunk {
                relu(&mut rest[0]);
            }
        }
        let logits = &scratch.acts[trunk];
        let [win, draw, loss] = softmax3([logits[0], logits[1], logits[2]]);
        Wdl { win, draw, loss }
    }

    /// After [`Network::evaluate`] of a position, the policy's probabilities of the moves whose
    /// policy indices are `indices` (softmax over these only: the legal moves), into `out`.
    pub fn policy(&self, scratch: &Scratch, indices: &[usize], out: &mut Vec<f32>) {
        let trunk = self.shape.hidden.len();
        self.policy_of(&scratch.acts[trunk - 1], indices, out);
    }

    /// [`Network::policy`] from the top trunk layer's activations `top` given apart (such as a
    /// [`QuantNetwork::top`](super::QuantNetwork::top)'s).
    pub fn policy_of(&self, top: &[f32], indices: &[usize], out: &mut Vec<f32>) {
        let trunk = self.shape.hidden.len();
        let head = self.layers[trunk + 1];
        assert_eq!(top.len(), head.inputs, "the top trunk layer's activations");
        out.clear();
        if self.policy_rows.is_empty() {
            for &p in indices {
                let mut z = self.params[head.b + p];
                for (i, &a) in top.iter().enumerate() {
                    if a != 0.0 {
                        z += a * self.params[head.w + i * head.outputs + p];
                    }
                }
                out.push(z);
            }
        } else {
            for &p in indices {
                let row = &self.policy_rows[p * head.inputs..(p + 1) * head.inputs];
                out.push(self.params[head.b + p] + dot(top, row));
            }
        }
        softmax(out);
    }

    /// Writes the network in gpn's format (docs/learned.md): magic `GPNN`, version, game name,
    /// widths, then every parameter as little-endian f32, then an FNV-1a checksum of those bytes.
    pub fn write(&self, out: &mut impl Write) -> io::Result<()> {
        out.write_all(MAGIC)?;
        let version = if self.has_costs() { VERSION } else { 1 };
        out.write_all(&version.to_le_bytes())?;
        let name = self.game.as_bytes();
        out.write_all(&(name.len() as u32).to_le_bytes())?;
        out.write_all(name)?;
        out.write_all(&(self.shape.inputs as u32).to_le_bytes())?;
        out.write_all(&(self.shape.policy as u32).to_le_bytes())?;
        if version >= 2 {
            out.write_all(&(self.shape.cost as u32).to_le_bytes())?;
        }
        out.write_all(&(self.shape.hidden.len() as u32).to_le_bytes())?;
        for &h in &self.shape.hidden {
            out.write_all(&(h as u32).to_le_bytes())?;
        }
        let mut bytes = Vec::with_capacity(self.params.len() * 4);
        for p in &self.params {
            bytes.extend_from_slice(&p.to_le_bytes());
        }
        out.write_all(&bytes)?;
        out.write_all(&fnv1a(&bytes).to_le_bytes())
    }

    /// Reads a network written by [`Network::write`].
    pub fn read(input: &mut impl Read) -> Result<Network, NetworkError> {
        let mut magic = [0u8; 4];
        input.read_exact(&mut magic)?;
        if &magic != MAGIC {
            return Err(NetworkError::Format("no GPNN magic".into()));
        }
        let version = read_u32(input)?;
        if !(1..=VERSION).contains(&version) {
            return Err(NetworkError::Format(format!(
                "format version {version}, this gpn reads 1 to {VERSION}"
            )));
        }
        let len = read_u32(input)? as usize;
        if len > 64 {
            return Err(NetworkError::Format("game name too long".into()));
        }
        let mut name = vec![0u8; len];
        input.read_exact(&mut name)?;
        let game = String::from_utf8(name)
            .map_err(|_| NetworkError::Format("game name not UTF-8".into()))?;
        let inputs = read_u32(input)? as usize;
        let policy = read_u32(input)? as usize;
        let cost = if version >= 2 {
            read_u32(input)? as usize
        } else {
            0
        };
        let depth = read_u32(input)? as usize;
        if depth > MAX_LAYERS {
            return Err(NetworkError::Format(format!("{depth} hidden layers")));
        }
        let mut hidden = Vec::with_capacity(depth);
        for _ in 0..depth {
            hidden.push(read_u32(input)? as usize);
        }
        let shape = Shape {
            inputs,
            hidden,
            policy,
            cost,
        };
        shape.check()?;
        // Read through a cap rather than into a buffer of the declared size: the buffer grows
        // only as far as the data goes, so a short file that declares a big shape costs no
        // more memory than its own length.
        let want = shape.params() * 4;
        let mut bytes = Vec::new();
        input.take(want as u64).read_to_end(&mut bytes)?;
        if bytes.len() < want {
            return Err(NetworkError::Format(format!(
                "the file ends after {} of the {want} bytes of parameters its header declares",
                bytes.len()
            )));
        }
        let mut sum = [0u8; 8];
        input.read_exact(&mut sum)?;
        if u64::from_le_bytes(sum) != fnv1a(&bytes) {
            return Err(NetworkError::Format("checksum mismatch".into()));
        }
        let params: Vec<f32> = bytes
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        if params.iter().any(|p| !p.is_finite()) {
            return Err(NetworkError::Format("a parameter is not finite".into()));
        }
        let layers = shape.layers();
        Ok(Network {
            game,
            shape,
            layers,
            params,
            policy_rows: Vec::new(),
        }
        .with_policy_rows())
    }

    /// Saves to `path` (written beside it and renamed, so a reader never sees half a file).
    pub fn save(&self, path: &Path) -> io::Result<()> {
        let tmp = path.with_extension("tmp");
        {
            let mut f = io::BufWriter::new(std::fs::File::create(&tmp)?);
            self.write(&mut f)?;
            f.flush()?;
        }
        std::fs::rename(&tmp, path)
    }

    /// Loads from `path`.
    pub fn load(path: &Path) -> Result<Network, NetworkError> {
        let (file, _) = crate::files::open_regular(path, MAX_PARAMS * 4 + (1 << 20))?;
        Network::read(&mut io::BufReader::new(file))
    }
}

fn read_u32(input: &mut impl Read) -> io::Result<u32> {
    let mut b = [0u8; 4];
    input.read_exact(&mut b)?;
    Ok(u32::from_le_bytes(b))
}

/// FNV-1a, 64 bits: a checksum against truncated or damaged files, not against tampering.
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// `out = b + x W` for dense layer `l` (rows of `x`'s zero entries skipped: after a ReLU about
/// half are).
#[inline]
fn dense(params: &[f32], l: Layer, x: &[f32], out: &mut Vec<f32>) {
    out.clear();
    out.extend_from_slice(&params[l.b..l.b + l.outputs]);
    for (i, &a) in x.iter().enumerate() {
        if a != 0.0 {
            let row = l.w + i * l.outputs;
            for (o, w) in out.iter_mut().zip(&params[row..row + l.outputs]) {
                *o += a * w;
            }
        }
    }
}

/// The dot product of `a` and `b` (equal lengths), in eight lanes so that it vectorises.
#[inline]
fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut lanes = [0.0f32; 8];
    let (a8, b8) = (a.chunks_exact(8), b.chunks_exact(8));
    let tail: f32 = a8
        .remainder()
        .iter()
        .zip(b8.remainder())
        .map(|(x, y)| x * y)
        .sum();
    for (x, y) in a8.zip(b8) {
        for k in 0..8 {
            lanes[k] += x[k] * y[k];
        }
    }
    lanes.iter().sum::<f32>() + tail
}

#[inline]
pub(crate) fn relu(x: &mut [f32]) {
    for v in x {
        *v = v.max(0.0);
    }
}

/// Softmax of three logits.
#[inline]
pub(crate) fn softmax3(z: [f32; 3]) -> [f32; 3] {
    let m = z[0].max(z[1]).max(z[2]);
    let e = [(z[0] - m).exp(), (z[1] - m).exp(), (z[2] - m).exp()];
    let s = e[0] + e[1] + e[2];
    [e[0] / s, e[1] / s, e[2] / s]
}

/// Softmax in place (an empty slice stays empty).
#[inline]
pub(crate) fn softmax(z: &mut [f32]) {
    let m = z.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let mut s = 0.0;
    for v in z.iter_mut() {
        *v = (*v - m).exp();
        s += *v;
    }
    for v in z.iter_mut() {
        *v /= s;
    }
}
