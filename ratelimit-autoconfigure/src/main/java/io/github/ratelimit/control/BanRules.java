package io.github.ratelimit.control;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import org.jspecify.annotations.Nullable;

/**
 * The ban rule of each tier and group: each setting is the group's, else the tier's, else
 * the global one; a rule whose refusals resolve to 0 bans nobody (the default).
 */
public final class BanRules {

	/** Nobody is ever banned. */
	public static final BanRules NONE = new BanRules(Settings.UNSET, Map.of(), Map.of());

	private final Settings global;

	private final Map<String, Settings> tiers;

	private final Map<String, Settings> groups;

	private final Map<String, Optional<BanRule>> resolved = new ConcurrentHashMap<>();

	private final boolean any;

	/**
	 * Creates the rules.
	 * @param global the global settings
	 * @param tiers per tier
	 * @param groups per endpoint group
	 * @throws IllegalArgumentException when a resolved rule is invalid
	 */
	public BanRules(Settings global, Map<String, Settings> tiers, Map<String, Settings> groups) {
		this.global = global;
		this.tiers = Map.copyOf(tiers);
		this.groups = Map.copyOf(groups);
		this.any = refusals(global) > 0 || tiers.values().stream().anyMatch((s) -> refusals(s) > 0)
				|| groups.values().stream().anyMatch((s) -> refusals(s) > 0);
	}

	private static int refusals(Settings settings) {
		return (settings.refusals() != null) ? settings.refusals() : 0;
	}

	/** Whether some tier or group bans at all. */
	public boolean any() {
		return this.any;
	}

	/**
	 * The rule for requests of {@code tier} in {@code group}, or {@code null} when they
	 * are never banned.
	 */
	public @Nullable BanRule ruleFor(String tier, String group) {
		if (!this.any) {
			return null;
		}
		// bounded: tiers and groups are finite sets from configuration and annotations
		return this.resolved.computeIfAbsent(tier + '\n' + group, (key) -> resolve(tier, group)).orElse(null);
	}

	private Optional<BanRule> resolve(String tier, String group) {
		Settings[] chain = { this.groups.getOrDefault(group, Settings.UNSET),
				this.tiers.getOrDefault(tier, Settings.UNSET), this.global };
		Integer refusals = null;
		Duration window = null;
		Duration duration = null;
		Duration maxDuration = null;
		Duration memory = null;
		for (Settings settings : chain) {
			refusals = (refusals != null) ? refusals : settings.refusals();
			window = (window != null) ? window : settings.window();
			duration = (duration != null) ? duration : settings.duration();
			maxDuration = (maxDuration != null) ? maxDuration : settings.maxDuration();
			memory = (memory != null) ? memory : settings.memory();
		}
		if (refusals == null || refusals <= 0) {
			return Optional.empty();
		}
		return Optional.of(new BanRule(refusals, orElse(window, Settings.DEFAULT_WINDOW),
				orElse(duration, Settings.DEFAULT_DURATION), orElse(maxDuration, Settings.DEFAULT_MAX_DURATION),
				orElse(memory, Settings.DEFAULT_MEMORY)));
	}

	private static Duration orElse(@Nullable Duration value, Duration fallback) {
		return (value != null) ? value : fallback;
	}

	/**
	 * Ban settings of one level, each unset ({@code null}) to inherit.
	 *
	 * @param refusals refusals that start a ban (0: never)
	 * @param window the window they are counted in
	 * @param duration the first ban
	 * @param maxDuration the longest ban
	 * @param memory how long a ban is remembered after it ends, for doubling
	 */
	public record Settings(@Nullable Integer refusals, @Nullable Duration window, @Nullable Duration duration,
			@Nullable Duration maxDuration, @Nullable Duration memory) {

		/** Within how long the refusals that start a ban must come. */
		public static final Duration DEFAULT_WINDOW = Duration.ofMinutes(1);

		/** How long a first ban lasts. */
		public static final Duration DEFAULT_DURATION = Duration.ofHours(1);

		/** The longest a repeated ban lasts. */
		public static final Duration DEFAULT_MAX_DURATION = Duration.ofDays(1);

		/** How long a subject's earlier bans are remembered to lengthen the next. */
		public static final Duration DEFAULT_MEMORY = Duration.ofDays(1);

		/** Nothing set. */
		public static final Settings UNSET = new Settings(null, null, null, null, null);

	}

}
