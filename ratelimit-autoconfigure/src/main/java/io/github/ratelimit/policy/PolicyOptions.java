package io.github.ratelimit.policy;

import java.time.Duration;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * What shapes policies beside their limit strings: the global mode and soft limit, their
 * overrides per tier and group, the groups' own concurrency caps and waiting, and the
 * time zone of calendar quotas. Precedence of mode and warn-at: the group's, else the
 * tier's, else the global one.
 *
 * @param zone the time zone of calendar quota boundaries ({@code ratelimit.quotas.zone})
 * @param mode the global mode ({@code ratelimit.mode})
 * @param warnAtPercent the global soft limit in percent, 0 for none
 * ({@code ratelimit.warn-at})
 * @param tiers per tier
 * @param groups per endpoint group
 */
public record PolicyOptions(ZoneId zone, Mode mode, int warnAtPercent, Map<String, Tuning> tiers,
		Map<String, GroupOptions> groups) {

	/** Enforce everything, no soft limits, quotas in UTC. */
	public static final PolicyOptions DEFAULTS = new PolicyOptions(ZoneOffset.UTC, Mode.ENFORCE, 0, Map.of(), Map.of());

	public PolicyOptions {
		tiers = Map.copyOf(tiers);
		groups = Map.copyOf(groups);
	}

	Mode modeOf(String tier, String group) {
		GroupOptions groupOptions = this.groups.get(group);
		if (groupOptions != null && groupOptions.tuning().mode() != null) {
			return groupOptions.tuning().mode();
		}
		Tuning tierTuning = this.tiers.get(tier);
		return (tierTuning != null && tierTuning.mode() != null) ? tierTuning.mode() : this.mode;
	}

	int warnAtOf(String tier, String group) {
		GroupOptions groupOptions = this.groups.get(group);
		if (groupOptions != null && groupOptions.tuning().warnAtPercent() != null) {
			return groupOptions.tuning().warnAtPercent();
		}
		Tuning tierTuning = this.tiers.get(tier);
		return (tierTuning != null && tierTuning.warnAtPercent() != null) ? tierTuning.warnAtPercent()
				: this.warnAtPercent;
	}

	/** The group's options, {@link GroupOptions#NONE} when it sets none. */
	public GroupOptions group(String group) {
		return this.groups.getOrDefault(group, GroupOptions.NONE);
	}

	/**
	 * Mode and soft limit of a tier, either unset.
	 *
	 * @param mode the mode, or {@code null} to inherit
	 * @param warnAtPercent the soft limit in percent, or {@code null} to inherit
	 */
	public record Tuning(@Nullable Mode mode, @Nullable Integer warnAtPercent) {
	}

	/**
	 * What a group sets beside its paths.
	 *
	 * @param tuning mode and soft limit of the group's policies
	 * @param concurrency requests of one caller in flight at once in this group, 0 for no
	 * cap
	 * @param maxWait how long a request may wait for its tokens instead of being refused;
	 * zero for never
	 * @param counts which responses the limits declared for the group count
	 */
	public record GroupOptions(Tuning tuning, long concurrency, Duration maxWait, CountedResponses counts) {

		/** A group that sets nothing of its own. */
		public static final GroupOptions NONE = new GroupOptions(new Tuning(null, null), 0, Duration.ZERO);

		/** Options of a group whose limits count every response. */
		public GroupOptions(Tuning tuning, long concurrency, Duration maxWait) {
			this(tuning, concurrency, maxWait, CountedResponses.ALL);
		}

	}

}
