// gpn's driver for the GPN-MCTS paper's reference code (the Ludii fork acatai/PNMCTSLudii):
// Table 1 matches counted both ways, with the iterations Ludii actually ran, and Ludii's own
// speed. Written for gpn against the fork's public API (MCTS.createScoreBoundedGPNMCTS,
// AIFactory "Score Bounded MCTS", Game.playout); no code of the fork is copied here.
// Built and run by scripts/reference/ludii.sh, which puts the fork's classes on the classpath.
//
//   java Reference match <game.lud> <ms per move | Nit> <games> <rank|sum|max> <C_pn>
//   java Reference speed <game.lud> <seconds>
//
// match: Score Bounded GPN-MCTS against Score Bounded MCTS (both with tree reuse, C = sqrt 2,
// random playouts capped at 200 moves, as the paper), seats swapped every game. Prints one line
// per game and a summary: W-D-L from GPN-MCTS's side, the paper runner's ratio
// wins / (games - draws), the score (wins + draws / 2) / games with a 95 % interval, and the
// mean iterations per move of each agent.
// speed: uniformly random playouts to the end of the game (as `gpn bench` plays them) and MCTS
// iterations (UCT and Score Bounded GPN-MCTS from the start position, 1 s searches) per second.

import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import game.Game;
import other.AI;
import other.GameLoader;
import other.context.Context;
import other.move.Move;
import other.trial.Trial;
import search.mcts.MCTS;
import search.mcts.selection.ScoreBounded_GPN_UCB;
import utils.AIFactory;

public final class Reference
{
	public static void main(final String[] args)
	{
		if (args.length >= 6 && args[0].equals("match"))
			match(args);
		else if (args.length >= 3 && args[0].equals("speed"))
			speed(args);
		else
		{
			System.err.println("usage: Reference match <game.lud> <ms|Nit> <games> <rank|sum|max> <C_pn>");
			System.err.println("       Reference speed <game.lud> <seconds>");
			System.exit(2);
		}
	}

	private static Game load(final String path)
	{
		final Game game = GameLoader.loadGameFromFile(new File(path));
		if (game == null)
		{
			System.err.println("cannot load " + path);
			System.exit(1);
		}
		return game;
	}

	private static ScoreBounded_GPN_UCB.PNUCT_VARIANT variant(final String name)
	{
		switch (name)
		{
		case "rank": return ScoreBounded_GPN_UCB.PNUCT_VARIANT.RANK;
		case "sum": return ScoreBounded_GPN_UCB.PNUCT_VARIANT.SUM;
		case "max": return ScoreBounded_GPN_UCB.PNUCT_VARIANT.MAX;
		default:
			System.err.println("bias must be rank, sum or max");
			System.exit(2);
			return null;
		}
	}

	private static void match(final String[] args)
	{
		final Game game = load(args[1]);
		final boolean byIterations = args[2].endsWith("it");
		final double seconds = byIterations ? -1.0 : Double.parseDouble(args[2]) / 1000.0;
		final int iterations = byIterations ? Integer.parseInt(args[2].substring(0, args[2].length() - 2)) : -1;
		final int games = Integer.parseInt(args[3]);
		final ScoreBounded_GPN_UCB.PNUCT_VARIANT bias = variant(args[4]);
		final double cpn = Double.parseDouble(args[5]);
		int wins = 0, draws = 0, losses = 0;
		long gpnIterations = 0, gpnMoves = 0, sbIterations = 0, sbMoves = 0;
		for (int g = 0; g < games; ++g)
		{
			final MCTS gpn = MCTS.createScoreBoundedGPNMCTS(cpn, bias);
			final MCTS sb = (MCTS) AIFactory.createAI("Score Bounded MCTS");
			// Seat 1 moves first; GPN-MCTS takes it in even games.
			final int gpnSeat = (g % 2 == 0) ? 1 : 2;
			final List<AI> ais = new ArrayList<AI>();
			ais.add(null);
			ais.add(gpnSeat == 1 ? gpn : sb);
			ais.add(gpnSeat == 1 ? sb : gpn);
			final Trial trial = new Trial(game);
			final Context context = new Context(game, trial);
			game.start(context);
			for (int p = 1; p <= 2; ++p)
				ais.get(p).initAI(game, p);
			while (!context.trial().over())
			{
				final int mover = context.state().mover();
				final MCTS ai = (MCTS) ais.get(mover);
				final Move move = ai.selectAction(game, new Context(context), seconds, iterations, -1);
				if (ai == gpn)
				{
					gpnIterations += Math.max(0, gpn.getNumMctsIterations());
					++gpnMoves;
				}
				else
				{
					sbIterations += Math.max(0, sb.getNumMctsIterations());
					++sbMoves;
				}
				game.apply(context, move);
			}
			final int winner = context.trial().status().winner();
			final String result;
			if (winner == 0)
			{
				++draws;
				result = "draw";
			}
			else if (winner == gpnSeat)
			{
				++wins;
				result = "GPN-MCTS";
			}
			else
			{
				++losses;
				result = "SB-MCTS";
			}
			for (int p = 1; p <= 2; ++p)
				ais.get(p).closeAI();
			System.out.printf(
				"game %d: GPN-MCTS seat %d, %d moves, winner %s; W-D-L %d-%d-%d%n",
				g + 1, gpnSeat, context.trial().numMoves(), result, wins, draws, losses);
		}
		final int n = wins + draws + losses;
		final double ratio = (wins + losses) > 0 ? (double) wins / (wins + losses) : Double.NaN;
		final double score = (wins + 0.5 * draws) / n;
		// The interval from the per-game score variance (normal approximation), as cutechess.
		final double var = (wins * Math.pow(1.0 - score, 2) + draws * Math.pow(0.5 - score, 2)
			+ losses * Math.pow(score, 2)) / n;
		final double half = 1.96 * Math.sqrt(var / n);
		System.out.printf("W-D-L %d-%d-%d%n", wins, draws, losses);
		System.out.printf("paper runner ratio wins/(games-draws) %.4f%n", ratio);
		System.out.printf("score (wins+draws/2)/games %.4f [%.4f, %.4f] (95%%)%n", score, score - half, score + half);
		System.out.printf("iterations per move: GPN-MCTS %.1f, SB-MCTS %.1f%n",
			(double) gpnIterations / Math.max(1, gpnMoves), (double) sbIterations / Math.max(1, sbMoves));
	}

	private static void speed(final String[] args)
	{
		final Game game = load(args[1]);
		final double seconds = Double.parseDouble(args[2]);
		final Context context = new Context(game, new Trial(game));
		// Warm-up: a second of playouts, so that the JIT has compiled the hot paths.
		for (final boolean measure : new boolean[] {false, true})
		{
			final long start = System.nanoTime();
			final double limit = (measure ? seconds : 1.0) * 1e9;
			long playouts = 0, moves = 0;
			while (System.nanoTime() - start < limit)
			{
				game.start(context);
				game.playout(context, null, 1.0, null, -1, -1, ThreadLocalRandom.current());
				moves += context.trial().numMoves();
				++playouts;
			}
			final double secs = (System.nanoTime() - start) / 1e9;
			if (measure)
				System.out.printf("playouts/s %.1f, moves/s %.1f (%d playouts to the end)%n",
					playouts / secs, moves / secs, playouts);
		}
		final String[] names = {"UCT", "Score Bounded GPN-MCTS"};
		for (final String name : names)
		{
			long its = 0;
			double secs = 0.0;
			// Three 1 s searches from the start position after one for warm-up.
			for (int round = 0; round < 4; ++round)
			{
				final MCTS ai = (MCTS) AIFactory.createAI(name);
				final Context start = new Context(game, new Trial(game));
				game.start(start);
				ai.initAI(game, start.state().mover());
				ai.selectAction(game, new Context(start), 1.0, -1, -1);
				if (round > 0)
				{
					its += ai.getNumMctsIterations();
					secs += 1.0;
				}
				ai.closeAI();
			}
			System.out.printf("%s iterations/s %.1f%n", name, its / secs);
		}
	}
}
