package io.github.ratelimit.policy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

import io.github.ratelimit.policy.SlidingWindow.Counts;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sliding window's arithmetic ({@link Counts}), which every store follows: exact
 * boundaries, waits that agree with a millisecond-by-millisecond search, and the error of
 * the two-counter approximation measured in a simulation.
 */
class SlidingWindowTests {

	private static final SlidingWindow TEN_A_MINUTE = new SlidingWindow(10, Duration.ofMinutes(1), "1m");

	// the simulations: 100 a minute over 40 minutes
	private static final long PERIOD = 60_000;

	private static final int WINDOWS = 40;

	private static final SlidingWindow HUNDRED_A_MINUTE = new SlidingWindow(100, Duration.ofMillis(PERIOD), "1m");

	// 12:00:00 UTC on 9 June 2030: a whole minute
	private static final long NOON = 1_907_236_800_000L;

	@Test
	void windowsAreAlignedOnTheEpoch() {
		assertThat(NOON % 60_000).isZero();
		assertThat(TEN_A_MINUTE.windowStart(NOON)).isEqualTo(NOON);
		assertThat(TEN_A_MINUTE.windowStart(NOON + 59_999)).isEqualTo(NOON);
		assertThat(TEN_A_MINUTE.windowStart(NOON + 60_000)).isEqualTo(NOON + 60_000);
		assertThat(TEN_A_MINUTE.windowSeconds()).isEqualTo(60);
		assertThat(new SlidingWindow(5, Duration.ofMillis(1500), "1500ms").windowSeconds()).isEqualTo(2);
	}

	@Test
	void countsMoveToTheWindowThatHoldsNow() {
		Counts counts = new Counts(NOON, 4, 7);
		assertThat(counts.at(TEN_A_MINUTE, NOON + 59_999)).isSameAs(counts);
		// the current count becomes the previous one
		assertThat(counts.at(TEN_A_MINUTE, NOON + 60_000)).isEqualTo(new Counts(NOON + 60_000, 7, 0));
		assertThat(counts.at(TEN_A_MINUTE, NOON + 119_999)).isEqualTo(new Counts(NOON + 60_000, 7, 0));
		// a whole window later nothing is left
		assertThat(counts.at(TEN_A_MINUTE, NOON + 120_000)).isEqualTo(new Counts(NOON + 120_000, 0, 0));
		assertThat(Counts.empty(TEN_A_MINUTE, NOON + 61_000)).isEqualTo(new Counts(NOON + 60_000, 0, 0));
	}

	@Test
	void aClockThatWentBackForgetsNothing() {
		Counts counts = new Counts(NOON, 10, 3);
		// back into the previous window: the counts stay, and weigh at least as much as
		// at
		// the window's start
		Counts back = counts.at(TEN_A_MINUTE, NOON - 1);
		assertThat(back).isSameAs(counts);
		assertThat(back.remaining(TEN_A_MINUTE, NOON - 1)).isZero();
		assertThat(back.fits(TEN_A_MINUTE, 1, NOON - 1)).isFalse();
		assertThat(back.millisUntil(TEN_A_MINUTE, 1, NOON - 1))
			.isGreaterThan(counts.millisUntil(TEN_A_MINUTE, 1, NOON));
		assertThat(back.millisUntilEmpty(TEN_A_MINUTE, NOON - 1)).isEqualTo(120_001);
	}

	@Test
	void thePreviousWindowWeighsByWhatOfItStillLiesInTheSlidingWindow() {
		Counts full = new Counts(NOON, 10, 0);
		assertThat(full.remaining(TEN_A_MINUTE, NOON)).isZero();
		// 10 x 54/60 = 9: one fits at 6 s exactly, not a millisecond earlier
		assertThat(full.fits(TEN_A_MINUTE, 1, NOON + 5999)).isFalse();
		assertThat(full.fits(TEN_A_MINUTE, 1, NOON + 6000)).isTrue();
		assertThat(full.remaining(TEN_A_MINUTE, NOON + 5999)).isZero();
		assertThat(full.remaining(TEN_A_MINUTE, NOON + 6000)).isOne();
		assertThat(full.remaining(TEN_A_MINUTE, NOON + 30_000)).isEqualTo(5);
		assertThat(full.remaining(TEN_A_MINUTE, NOON + 59_999)).isEqualTo(9);
		// the current window is never above the quota, whatever the previous one
		assertThat(new Counts(NOON, 0, 10).fits(TEN_A_MINUTE, 1, NOON + 59_999)).isFalse();
		assertThat(new Counts(NOON, 0, 9).fits(TEN_A_MINUTE, 1, NOON + 59_999)).isTrue();
	}

	@Test
	void waitsAreExact() {
		Counts full = new Counts(NOON, 10, 0);
		assertThat(full.millisUntil(TEN_A_MINUTE, 1, NOON)).isEqualTo(6000);
		assertThat(full.millisUntil(TEN_A_MINUTE, 5, NOON)).isEqualTo(30_000);
		assertThat(full.millisUntil(TEN_A_MINUTE, 1, NOON + 6000)).isZero();
		// a full current window: into the next one, where it weighs as the previous
		assertThat(new Counts(NOON, 0, 10).millisUntil(TEN_A_MINUTE, 1, NOON + 30_000)).isEqualTo(36_000);
		assertThat(new Counts(NOON, 3, 8).millisUntil(TEN_A_MINUTE, 3, NOON + 30_000)).isEqualTo(30_000 + 7500);
		assertThat(new Counts(NOON, 3, 8).millisUntilEmpty(TEN_A_MINUTE, NOON + 30_000)).isEqualTo(90_000);
		assertThat(new Counts(NOON, 3, 0).millisUntilEmpty(TEN_A_MINUTE, NOON + 30_000)).isEqualTo(30_000);
		assertThat(new Counts(NOON, 0, 0).millisUntilEmpty(TEN_A_MINUTE, NOON + 30_000)).isZero();
	}

	@Test
	void waitsAgreeWithASearchMillisecondByMillisecond() {
		SlidingWindow window = new SlidingWindow(7, Duration.ofMillis(1000), "1000ms");
		Random random = new Random(21);
		for (int run = 0; run < 2000; run++) {
			long start = 1_000_000 + 1000L * random.nextInt(5);
			Counts counts = new Counts(start, random.nextInt(8), random.nextInt(8));
			long now = start + random.nextInt(1000);
			long cost = 1 + random.nextInt(7);
			long wait = counts.millisUntil(window, cost, now);
			assertThat(wait).as("%s cost %d at %d", counts, cost, now).isEqualTo(search(window, counts, cost, now));
			assertThat(counts.millisUntilEmpty(window, now)).as("%s at %d", counts, now)
				.isEqualTo(searchEmpty(window, counts, now));
			// what is left is what fits
			long remaining = counts.remaining(window, now);
			assertThat(counts.fits(window, remaining, now) || remaining == 0).isTrue();
			assertThat(counts.fits(window, remaining + 1, now)).isFalse();
		}
	}

	private static long search(SlidingWindow window, Counts counts, long cost, long now) {
		for (long t = now;; t++) {
			if (counts.at(window, t).fits(window, cost, t)) {
				return t - now;
			}
		}
	}

	private static long searchEmpty(SlidingWindow window, Counts counts, long now) {
		for (long t = now;; t++) {
			Counts moved = counts.at(window, t);
			if (moved.previous() == 0 && moved.current() == 0) {
				return t - now;
			}
		}
	}

	@Test
	void aGiveBackTakesFromTheWindowTheRequestWasCountedIn() {
		Counts counts = new Counts(NOON, 4, 7);
		assertThat(counts.minus(TEN_A_MINUTE, 2, NOON)).isEqualTo(new Counts(NOON, 4, 5));
		assertThat(counts.minus(TEN_A_MINUTE, 2, NOON - 60_000)).isEqualTo(new Counts(NOON, 2, 7));
		assertThat(counts.minus(TEN_A_MINUTE, 2, NOON - 120_000)).isSameAs(counts);
		assertThat(counts.minus(TEN_A_MINUTE, 9, NOON)).isEqualTo(new Counts(NOON, 4, 0));
		assertThat(counts.minus(TEN_A_MINUTE, 9, NOON - 60_000)).isEqualTo(new Counts(NOON, 0, 7));
		assertThat(counts.plus(3)).isEqualTo(new Counts(NOON, 4, 10));
	}

	@Test
	void theLargestWindowsStayExact() {
		// 100 million a day: the parser's bound, quota x period just below 2^53
		SlidingWindow window = (SlidingWindow) LimitParser.parse("104000000/1d sliding").bandwidths().get(0);
		long day = 86_400_000;
		Counts full = new Counts(0, window.quota(), window.quota());
		assertThat(full.remaining(window, day - 1)).isZero();
		assertThat(full.millisUntil(window, window.quota(), day - 1)).isEqualTo(1 + day);
		Counts previous = new Counts(day, window.quota(), 0);
		assertThat(previous.remaining(window, day + day / 2)).isEqualTo(window.quota() / 2);
	}

	// the error of the approximation, measured

	@Test
	void steadyTrafficAtTheRateIsAdmittedAndNeverMoreThanTheQuotaInAWindow() {
		Simulation simulation = simulate(every(600));
		report("steady at the rate", simulation);
		assertThat(simulation.mostInAWindow()).isEqualTo(100);
		// the approximation weighs the request at a window's first millisecond into the
		// next window fully: one of the 100 a window is refused
		assertThat(simulation.admitted.size()).isEqualTo(WINDOWS * 99 + 1);
		simulation.assertBound();
	}

	@Test
	void steadyTrafficAboveTheRateIsCutToTheQuota() {
		for (int interval : new int[] { 300, 60, 1 }) {
			Simulation simulation = simulate(every(interval));
			report("steady at " + (600 / interval) + "x the rate", simulation);
			assertThat(simulation.mostInAWindow()).as("every %d ms", interval).isEqualTo(100);
			simulation.assertBound();
		}
	}

	@Test
	void randomArrivalsNeverExceedTheBound() {
		Random random = new Random(42);
		for (double rate : new double[] { 1, 1.5, 3 }) {
			List<Long> arrivals = new ArrayList<>();
			double t = 0;
			while (t < WINDOWS * PERIOD) {
				// exponential gaps: a Poisson stream at rate x the quota's rate
				t += -Math.log(1 - random.nextDouble()) * 600 / rate;
				arrivals.add((long) t);
			}
			Simulation simulation = simulate(arrivals);
			report("random at " + rate + "x the rate", simulation);
			simulation.assertBound();
		}
	}

	@Test
	void aFullWindowAtTheEndOfOneAndRequestsLateInTheNextGetNoSecondQuotaInAShortTime() {
		// 100 in the last millisecond of a window, then a request every millisecond of
		// the next (the most the approximation can be led to admit), then a quiet one
		List<Long> arrivals = new ArrayList<>();
		for (int w = 1; w < WINDOWS; w += 3) {
			for (int i = 0; i < 100; i++) {
				arrivals.add(w * PERIOD - 1);
			}
			for (long t = w * PERIOD; t < (w + 1) * PERIOD; t++) {
				arrivals.add(t);
			}
		}
		Simulation simulation = simulate(arrivals);
		report("adversarial", simulation);
		simulation.assertBound();
		// around a boundary the previous window weighs almost fully: within d ms after
		// it, at most quota x d / period more
		assertThat(simulation.mostAroundABoundary(PERIOD / 100)).isEqualTo(100);
		assertThat(simulation.mostAroundABoundary(PERIOD / 10)).isEqualTo(109);
		// over a whole window length, up to quota x (1 + f): 2N - 1 for an interval
		// from the burst to the end of the next window, never 2N
		assertThat(simulation.mostInAWindow()).isEqualTo(199);
		// a fixed window lets the whole second quota through at once: 2N within 0.1 s
		assertThat(simulation.mostAroundABoundary(100)).isEqualTo(100);
		assertThat(fixedWindow(arrivals).mostAroundABoundary(100)).isEqualTo(200);
	}

	private static List<Long> every(long intervalMillis) {
		List<Long> arrivals = new ArrayList<>();
		for (long t = 0; t < WINDOWS * PERIOD; t += intervalMillis) {
			arrivals.add(t);
		}
		return arrivals;
	}

	private static Simulation simulate(List<Long> arrivals) {
		Counts counts = Counts.empty(HUNDRED_A_MINUTE, 0);
		List<Long> admitted = new ArrayList<>();
		for (long t : arrivals) {
			Counts now = counts.at(HUNDRED_A_MINUTE, t);
			if (now.fits(HUNDRED_A_MINUTE, 1, t)) {
				counts = now.plus(1);
				admitted.add(t);
			}
			else {
				counts = now;
			}
		}
		return new Simulation(arrivals.size(), admitted);
	}

	private static Simulation fixedWindow(List<Long> arrivals) {
		FixedWindow window = new FixedWindow(100, Duration.ofMillis(PERIOD), "1m");
		List<Long> admitted = new ArrayList<>();
		long start = -1;
		long used = 0;
		for (long t : arrivals) {
			long current = window.window(t).start();
			if (current != start) {
				start = current;
				used = 0;
			}
			if (used < window.quota()) {
				used++;
				admitted.add(t);
			}
		}
		return new Simulation(arrivals.size(), admitted);
	}

	private static void report(String pattern, Simulation simulation) {
		System.out.printf(
				"Sliding window 100/1m, %s: %d of %d admitted; most in any 1m: %d; most within 0.6 s / 6 s "
						+ "around a boundary: %d / %d%n",
				pattern, simulation.admitted.size(), simulation.arrivals, simulation.mostInAWindow(),
				simulation.mostAroundABoundary(PERIOD / 100), simulation.mostAroundABoundary(PERIOD / 10));
	}

	/** What a pattern of arrivals got through, in order of time. */
	private record Simulation(int arrivals, List<Long> admitted) {

		/** The most admitted in any interval shorter than a window. */
		int mostInAWindow() {
			int most = 0;
			int first = 0;
			for (int last = 0; last < this.admitted.size(); last++) {
				while (this.admitted.get(last) - this.admitted.get(first) >= PERIOD) {
					first++;
				}
				most = Math.max(most, last - first + 1);
			}
			return most;
		}

		/** The most admitted within {@code millis} either side of a boundary. */
		int mostAroundABoundary(long millis) {
			int most = 0;
			for (long boundary = PERIOD; boundary < WINDOWS * PERIOD; boundary += PERIOD) {
				long from = boundary - millis;
				long to = boundary + millis;
				most = Math.max(most, (int) this.admitted.stream().filter((t) -> t >= from && t < to).count());
			}
			return most;
		}

		/**
		 * Every interval shorter than a window that ends {@code e} ms into a window holds
		 * at most quota x (1 + e / period).
		 */
		void assertBound() {
			long quota = HUNDRED_A_MINUTE.quota();
			int first = 0;
			for (int last = 0; last < this.admitted.size(); last++) {
				long end = this.admitted.get(last);
				while (end - this.admitted.get(first) >= PERIOD) {
					first++;
				}
				long elapsed = end - HUNDRED_A_MINUTE.windowStart(end);
				long count = last - first + 1;
				assertThat(count * PERIOD).as("admitted up to %d", end).isLessThanOrEqualTo(quota * (PERIOD + elapsed));
			}
		}

	}

}
