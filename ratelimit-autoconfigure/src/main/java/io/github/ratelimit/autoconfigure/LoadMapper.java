package io.github.ratelimit.autoconfigure;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.jspecify.annotations.Nullable;

import io.github.ratelimit.load.LimitFactors;
import io.github.ratelimit.load.LoadShedder;
import io.github.ratelimit.load.LoadSignal;
import io.github.ratelimit.load.Priority;
import io.github.ratelimit.load.ScaledPolicies;
import io.github.ratelimit.load.Threshold;
import io.github.ratelimit.policy.InvalidRateLimitConfigurationException;

/**
 * Maps {@code ratelimit.load} and {@code ratelimit.warm-up} onto the {@link LoadShedder}
 * and the {@link ScaledPolicies} of the limiter, checking every value: a bad one stops
 * the start naming its property.
 */
final class LoadMapper {

	private static final String LOAD = "ratelimit.load.";

	private LoadMapper() {
	}

	/**
	 * Whether load shedding and adaptive limits are on: {@code ratelimit.load.enabled},
	 * or unset and shed-at or adaptive configured.
	 */
	static boolean enabled(LoadProperties load) {
		Boolean enabled = load.getEnabled();
		return (enabled != null) ? enabled : !load.getShedAt().isEmpty() || !load.getAdaptive().isEmpty();
	}

	/**
	 * Checks that an enabled load has a signal: the application's, or one of its own.
	 * @param load the properties
	 * @param applicationSignal whether the application defines its {@link LoadSignal}
	 */
	static void checkSignal(LoadProperties load, boolean applicationSignal) {
		if (enabled(load) && !applicationSignal && load.getMaxInFlight() == null
				&& load.getCpu() == LoadProperties.CpuSignal.NONE) {
			throw new InvalidRateLimitConfigurationException(LOAD + "max-in-flight", "unset",
					"load shedding or adaptive limits need a load signal: requests in flight, CPU "
							+ "(ratelimit.load.cpu) or a LoadSignal bean",
					LOAD + "max-in-flight=200");
		}
		Integer max = load.getMaxInFlight();
		if (max != null && max < 1) {
			throw new InvalidRateLimitConfigurationException(LOAD + "max-in-flight", max,
					"at least one request in flight makes a load of 1", LOAD + "max-in-flight=200");
		}
	}

	/** The threshold of an overloaded instance, from high and low. */
	static Threshold overloaded(LoadProperties load) {
		double high = load.getHigh();
		if (!(high > 0 && high <= 1)) {
			throw new InvalidRateLimitConfigurationException(LOAD + "high", high, "a load is above 0 and at most 1",
					LOAD + "high=0.9");
		}
		double low = load.getLow();
		if (!(low >= 0 && low <= high)) {
			throw new InvalidRateLimitConfigurationException(LOAD + "low", low,
					"the load an overloaded instance leaves below is from 0 to ratelimit.load.high (" + high + ")",
					LOAD + "low=" + Math.round(high * 75) / 100.0);
		}
		return new Threshold(high, low);
	}

	/**
	 * The shedder, or {@code null} when load is off.
	 * @param properties the properties
	 * @param signal the load signal
	 */
	static @Nullable LoadShedder shedder(RateLimitProperties properties, LoadSignal signal) {
		LoadProperties load = properties.getLoad();
		if (!enabled(load)) {
			return null;
		}
		Threshold overloaded = overloaded(load);
		double gap = overloaded.enter() - overloaded.leave();
		List<LoadShedder.Step> steps = new ArrayList<>();
		if (load.getShedAt().isEmpty()) {
			steps.add(new LoadShedder.Step(Priority.LOW, overloaded));
		}
		Map<Priority, Double> byPriority = new LinkedHashMap<>();
		for (Map.Entry<String, Double> entry : load.getShedAt().entrySet()) {
			String property = LOAD + "shed-at." + entry.getKey();
			Priority priority;
			try {
				priority = Priority.parse(entry.getKey());
			}
			catch (IllegalArgumentException ex) {
				throw new InvalidRateLimitConfigurationException(property, entry.getValue(),
						"'" + entry.getKey() + "' is no priority; " + ex.getMessage(), LOAD + "shed-at.low=0.8");
			}
			double level = (entry.getValue() != null) ? entry.getValue() : Double.NaN;
			if (priority.critical()) {
				throw new InvalidRateLimitConfigurationException(property, level,
						"critical traffic is never shed: shed lower priorities", LOAD + "shed-at.high=0.98");
			}
			if (!(level > 0 && level <= 1)) {
				throw new InvalidRateLimitConfigurationException(property, level, "a load is above 0 and at most 1",
						LOAD + "shed-at." + entry.getKey() + "=0.8");
			}
			byPriority.put(priority, level);
			steps.add(new LoadShedder.Step(priority, new Threshold(level, Math.max(0, level - gap))));
		}
		// a higher priority shed from a lower load than a lower one would be shed first
		Priority previous = null;
		for (Priority priority : new TreeSet<>(byPriority.keySet())) {
			if (previous != null && byPriority.get(priority) < byPriority.get(previous)) {
				throw new InvalidRateLimitConfigurationException(LOAD + "shed-at." + priority, byPriority.get(priority),
						"a higher priority is shed from a load at least as high as a lower one's (" + previous + ": "
								+ byPriority.get(previous) + ")",
						LOAD + "shed-at." + priority + "=" + byPriority.get(previous));
			}
			previous = priority;
		}
		Duration retryAfter = load.getRetryAfter();
		if (retryAfter.isNegative() || retryAfter.isZero()) {
			throw new InvalidRateLimitConfigurationException(LOAD + "retry-after", retryAfter,
					"a shed request is told to wait a positive time", LOAD + "retry-after=5s");
		}
		return new LoadShedder(signal, priorities(properties), groupPriorities(properties), steps, retryAfter);
	}

	/**
	 * The limits at their share of warm-up and load, or {@code null} when every limit is
	 * always at its configured size.
	 * @param properties the properties
	 * @param clock tells the time of the warm-up
	 * @param signal the load signal
	 * @param known the tiers and groups configured
	 */
	static @Nullable ScaledPolicies scaledPolicies(RateLimitProperties properties, Clock clock, LoadSignal signal,
			Set<String> known) {
		WarmUpProperties warmUp = properties.getWarmUp();
		Duration period = warmUp.getPeriod();
		if (period.isNegative()) {
			throw new InvalidRateLimitConfigurationException("ratelimit.warm-up.period", period,
					"a warm-up lasts 0 (none) or longer", "ratelimit.warm-up.period=30s");
		}
		double initial = warmUp.getInitial();
		if (!(initial > 0 && initial <= 1)) {
			throw new InvalidRateLimitConfigurationException("ratelimit.warm-up.initial", initial,
					"limits start at a share above 0 and at most 1", "ratelimit.warm-up.initial=0.25");
		}
		LoadProperties load = properties.getLoad();
		Map<String, Double> adaptive = new LinkedHashMap<>();
		if (enabled(load)) {
			for (Map.Entry<String, LoadProperties.Adaptive> entry : load.getAdaptive().entrySet()) {
				String property = LOAD + "adaptive." + entry.getKey() + ".factor";
				double factor = entry.getValue().getFactor();
				if (!known.contains(entry.getKey())) {
					throw new InvalidRateLimitConfigurationException(property, factor,
							"'" + entry.getKey() + "' is no tier or group; known are " + known,
							LOAD + "adaptive.anonymous.factor=0.5");
				}
				if (!(factor > 0 && factor <= 1)) {
					throw new InvalidRateLimitConfigurationException(property, factor,
							"limits shrink to a share above 0 and at most 1", property + "=0.5");
				}
				adaptive.put(entry.getKey(), factor);
			}
		}
		if (period.isZero() && adaptive.isEmpty()) {
			return null;
		}
		Threshold overloaded = adaptive.isEmpty() ? null : overloaded(load);
		return new ScaledPolicies(new LimitFactors(clock, period, initial, signal, overloaded, adaptive));
	}

	private static Map<String, Priority> priorities(RateLimitProperties properties) {
		Map<String, Priority> priorities = new LinkedHashMap<>();
		properties.getTiers().forEach((name, tier) -> {
			if (tier.getPriority() != null) {
				priorities.put(name, tier.getPriority());
			}
		});
		return priorities;
	}

	private static Map<String, Priority> groupPriorities(RateLimitProperties properties) {
		Map<String, Priority> priorities = new LinkedHashMap<>();
		properties.getGroups().forEach((name, group) -> {
			if (group.getPriority() != null) {
				priorities.put(name, group.getPriority());
			}
		});
		return priorities;
	}

}
