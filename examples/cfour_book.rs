//! Builds Connect Four's opening book (`books/cfour.book`) and surveys the solver's times.
//!
//! `cargo run --release --example cfour_book -- build <max plies> <file>`
//! `cargo run --release --example cfour_book -- survey <plies> <count>`

use gpn::game::connect4::book;
use gpn::game::Rules;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let num = |i: usize, default: u64| {
        args.get(i)
            .and_then(|a| a.parse::<u64>().ok())
            .unwrap_or(default)
    };
    match args.first().map(String::as_str) {
        Some("build") => {
            let depth = num(1, 8) as u32;
            let path = args.get(2).map_or("books/cfour.book", String::as_str);
            let t0 = std::time::Instant::now();
            let built = book::build(
                depth,
                24,
                |n, g, m| {
                    if n <= 60 || n % 100 == 0 {
                        let (pos, mv) = (g.to_position(), g.format_move(m));
                        eprintln!("{n} {pos} {mv} {:.1} s", t0.elapsed().as_secs_f64());
                    }
                },
                |ply, book| {
                    // Each finished level is a usable book: keep it, in case the build is cut.
                    let _ = std::fs::write(format!("{path}.{ply}"), book.to_bytes());
                    eprintln!(
                        "level {ply} done: {} positions, {:.1} s",
                        book.len(),
                        t0.elapsed().as_secs_f64()
                    );
                },
            );
            let Some((book, stats)) = built else {
                eprintln!("a position of the walk is not a first-player win");
                std::process::exit(1);
            };
            if let Err(e) = std::fs::write(path, book.to_bytes()) {
                eprintln!("cannot write {path}: {e}");
                std::process::exit(1);
            }
            println!(
                "book depth {depth}: {} positions, {} bytes, {} nodes, {:.1} s",
                stats.positions,
                book.to_bytes().len(),
                stats.nodes,
                stats.time.as_secs_f64()
            );
        }
        Some("survey") => {
            let plies = num(1, 10) as u32;
            let count = num(2, 20) as usize;
            let mut times = book::survey(plies, count, 1, 24);
            times.sort();
            let secs: Vec<f64> = times.iter().map(|t| t.0.as_secs_f64()).collect();
            let mean = secs.iter().sum::<f64>() / secs.len().max(1) as f64;
            let nodes = times.iter().map(|t| t.1).sum::<u64>() / times.len().max(1) as u64;
            println!(
                "ply {plies}: {count} positions, mean {mean:.4} s, median {:.4} s, max {:.4} s, mean nodes {nodes}",
                secs.get(secs.len() / 2).copied().unwrap_or(0.0),
                secs.last().copied().unwrap_or(0.0)
            );
        }
        _ => {
            eprintln!("usage: cfour_book build <max plies> <file> | survey <plies> <count>");
            std::process::exit(2);
        }
    }
}
