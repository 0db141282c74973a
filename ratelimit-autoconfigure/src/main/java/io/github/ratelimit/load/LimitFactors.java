package io.github.ratelimit.load;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

/**
 * The share of their configured size the limits of a tier and a group are in force at, in
 * thousandths: a warm-up after start ramps every limit from
 * {@code ratelimit.warm-up.initial} to its full size over
 * {@code ratelimit.warm-up.period}, and adaptive limits ({@code ratelimit.load.adaptive})
 * shrink the limits of chosen tiers and groups by their factor while the
 * {@link LoadSignal load} is past its threshold. The warm-up moves in steps of
 * {@value #WARM_UP_STEP}‰, so a limit takes few sizes.
 */
public final class LimitFactors {

	/** A limit in force at its configured size. */
	public static final int WHOLE = 1000;

	/** The steps of the warm-up, in thousandths. */
	static final int WARM_UP_STEP = 50;

	private final Clock clock;

	private final long startMillis;

	private final long warmUpMillis;

	private final int initialPermille;

	private final @Nullable LoadSignal signal;

	private final @Nullable Threshold overloaded;

	private final Map<String, Integer> adaptive;

	private volatile boolean warm;

	/**
	 * Creates the factors.
	 * @param clock tells the time; the warm-up starts now
	 * @param warmUp how long the warm-up takes; zero for none
	 * @param initial the share limits start at, above 0 and at most 1
	 * @param signal the load, or {@code null} without adaptive limits
	 * @param overloaded from which load adaptive limits shrink, or {@code null} without
	 * @param adaptive the factor (above 0, at most 1) of each tier or group whose limits
	 * adapt to the load
	 */
	public LimitFactors(Clock clock, Duration warmUp, double initial, @Nullable LoadSignal signal,
			@Nullable Threshold overloaded, Map<String, Double> adaptive) {
		if (!(initial > 0 && initial <= 1)) {
			throw new IllegalArgumentException("initial must be above 0 and at most 1");
		}
		this.clock = clock;
		this.startMillis = clock.millis();
		this.warmUpMillis = warmUp.toMillis();
		this.initialPermille = (int) Math.round(initial * WHOLE);
		this.signal = signal;
		this.overloaded = overloaded;
		this.adaptive = adaptive.entrySet()
			.stream()
			.collect(Collectors.toUnmodifiableMap(Map.Entry::getKey,
					(entry) -> Math.max(1, (int) Math.round(entry.getValue() * WHOLE))));
		this.warm = this.warmUpMillis <= 0 || this.initialPermille >= WHOLE;
	}

	/**
	 * The share of their size the limits of a tier and a group are in force at now.
	 * @param tier the caller's tier
	 * @param group the request's endpoint group
	 * @return thousandths, {@value #WHOLE} for the configured size
	 */
	public int permille(String tier, String group) {
		int factor = warmUp();
		if (!this.adaptive.isEmpty() && loaded()) {
			Integer byTier = this.adaptive.get(tier);
			Integer byGroup = this.adaptive.get(group);
			int adapted = Math.min((byTier != null) ? byTier : WHOLE, (byGroup != null) ? byGroup : WHOLE);
			factor = (int) ((long) factor * adapted / WHOLE);
		}
		return Math.max(1, factor);
	}

	/**
	 * The state of the factors now, below 4096: the warm-up's share (in steps) and
	 * whether adaptive limits are shrunk.
	 */
	public int state() {
		boolean shrunk = !this.adaptive.isEmpty() && loaded();
		return warmUp() * 2 + (shrunk ? 1 : 0);
	}

	/** Whether the load is past the threshold of adaptive limits now. */
	public boolean loaded() {
		LoadSignal signal = this.signal;
		Threshold overloaded = this.overloaded;
		return signal != null && overloaded != null && overloaded.crossed(signal.level());
	}

	private int warmUp() {
		if (this.warm) {
			return WHOLE;
		}
		long elapsed = this.clock.millis() - this.startMillis;
		if (elapsed >= this.warmUpMillis) {
			this.warm = true;
			return WHOLE;
		}
		long ramp = this.initialPermille + (WHOLE - this.initialPermille) * Math.max(0, elapsed) / this.warmUpMillis;
		// in steps, never below the initial share
		return (int) Math.max(this.initialPermille, ramp / WARM_UP_STEP * WARM_UP_STEP);
	}

}
