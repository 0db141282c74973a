package io.github.ratelimit.load;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * Priority shedding: while the {@link LoadSignal load} is past a step's threshold, the
 * requests whose priority is at most the step's are refused before any limit is checked,
 * lowest priorities first as the load rises; {@link Priority#CRITICAL critical} traffic
 * is never shed, which keeps the capacity left for it. A request's priority is the
 * highest of its tier's and its group's ({@code normal} when neither names one).
 */
public final class LoadShedder {

	private final LoadSignal signal;

	private final Map<String, Priority> tiers;

	private final Map<String, Priority> groups;

	private final List<Step> steps;

	private final long retryAfterSeconds;

	/**
	 * Creates a shedder.
	 * @param signal the load
	 * @param tiers the priority of tiers that name one
	 * @param groups the priority of endpoint groups that name one
	 * @param steps from which load on which priorities are shed
	 * @param retryAfter what a shed request is told to wait
	 */
	public LoadShedder(LoadSignal signal, Map<String, Priority> tiers, Map<String, Priority> groups, List<Step> steps,
			Duration retryAfter) {
		this.signal = signal;
		this.tiers = Map.copyOf(tiers);
		this.groups = Map.copyOf(groups);
		this.steps = steps.stream().sorted(Comparator.comparing(Step::upTo)).toList();
		this.retryAfterSeconds = Math.max(1, -Math.floorDiv(-retryAfter.toMillis(), 1000));
	}

	/**
	 * Whether a request of a tier and a group is shed now.
	 * @param tier the caller's tier
	 * @param group the request's endpoint group
	 * @return the priority shed, or {@code null} when the request goes on
	 */
	public @Nullable Priority shed(String tier, String group) {
		double level = this.signal.level();
		Priority priority = priority(tier, group);
		boolean shed = false;
		// every threshold sees every level: their hysteresis follows the load, not the
		// requests that happen to ask
		for (Step step : this.steps) {
			if (step.threshold().crossed(level) && !priority.critical() && priority.compareTo(step.upTo()) <= 0) {
				shed = true;
			}
		}
		return shed ? priority : null;
	}

	/** The priority of a request of a tier and a group. */
	public Priority priority(String tier, String group) {
		Priority byTier = this.tiers.get(tier);
		Priority byGroup = this.groups.get(group);
		if (byTier == null) {
			return (byGroup != null) ? byGroup : Priority.NORMAL;
		}
		return (byGroup == null || byTier.compareTo(byGroup) >= 0) ? byTier : byGroup;
	}

	/** Seconds a shed request is told to wait. */
	public long retryAfterSeconds() {
		return this.retryAfterSeconds;
	}

	/** The load signal. */
	public LoadSignal signal() {
		return this.signal;
	}

	/**
	 * One step of shedding.
	 *
	 * @param upTo the highest priority shed past the threshold, below critical
	 * @param threshold from which load it sheds
	 */
	public record Step(Priority upTo, Threshold threshold) {

		/**
		 * Checks the step.
		 * @throws IllegalArgumentException when it would shed critical traffic
		 */
		public Step {
			if (upTo.critical()) {
				throw new IllegalArgumentException("critical traffic is never shed");
			}
		}

	}

}
