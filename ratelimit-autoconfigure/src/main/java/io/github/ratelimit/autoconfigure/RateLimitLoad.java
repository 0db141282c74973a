package io.github.ratelimit.autoconfigure;

import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import io.github.ratelimit.load.InFlightLoadSignal;
import io.github.ratelimit.load.InFlightRequests;
import io.github.ratelimit.load.LoadShedder;
import io.github.ratelimit.load.LoadSignal;
import io.github.ratelimit.load.SampledLoadSignal;
import io.github.ratelimit.load.ScaledPolicies;
import io.github.ratelimit.policy.PolicyTable;

/**
 * What the limiter does about load and warm-up, as configured: the signal (the
 * application's {@link LoadSignal} bean, else requests in flight and CPU), the shedder
 * and the scaled limits, each {@code null} when off.
 */
final class RateLimitLoad {

	private final InFlightRequests inFlight;

	private final LoadSignal signal;

	private final @Nullable SampledLoadSignal cpu;

	private final @Nullable LoadShedder shedder;

	private final @Nullable ScaledPolicies scaled;

	RateLimitLoad(RateLimitProperties properties, PolicyTable table, InFlightRequests inFlight,
			@Nullable LoadSignal applicationSignal, @Nullable SampledLoadSignal cpu, Clock clock) {
		LoadProperties load = properties.getLoad();
		LoadMapper.checkSignal(load, applicationSignal != null);
		this.inFlight = inFlight;
		this.cpu = (applicationSignal != null) ? null : cpu;
		List<LoadSignal> signals = new ArrayList<>(2);
		if (applicationSignal != null) {
			signals.add(applicationSignal);
		}
		else {
			Integer max = load.getMaxInFlight();
			if (max != null) {
				signals.add(new InFlightLoadSignal(inFlight, max));
			}
			if (cpu != null) {
				signals.add(cpu);
			}
		}
		this.signal = signals.isEmpty() ? () -> 0 : LoadSignal.highestOf(signals.toArray(LoadSignal[]::new));
		Set<String> known = new LinkedHashSet<>(table.tiers());
		known.addAll(table.groups());
		known.addAll(properties.getTiers().keySet());
		this.shedder = LoadMapper.shedder(properties, this.signal);
		this.scaled = LoadMapper.scaledPolicies(properties, clock, this.signal, known);
	}

	InFlightRequests inFlight() {
		return this.inFlight;
	}

	LoadSignal signal() {
		return this.signal;
	}

	@Nullable SampledLoadSignal cpu() {
		return this.cpu;
	}

	@Nullable LoadShedder shedder() {
		return this.shedder;
	}

	@Nullable ScaledPolicies scaled() {
		return this.scaled;
	}

}
