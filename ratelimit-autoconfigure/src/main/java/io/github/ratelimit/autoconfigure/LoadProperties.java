package io.github.ratelimit.autoconfigure;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * Load shedding and adaptive limits ({@code ratelimit.load}): what the load of this
 * instance is measured by, from which load which priorities are shed, and which tiers'
 * and groups' limits shrink while it is high.
 */
public class LoadProperties {

	/**
	 * Whether the limiter sheds load and adapts limits; unset: on when shed-at or
	 * adaptive is configured.
	 */
	private @Nullable Boolean enabled;

	/**
	 * Requests in flight on this instance that make a load of 1; unset: in-flight
	 * requests are not a signal.
	 */
	private @Nullable Integer maxInFlight;

	/**
	 * Which CPU usage of Micrometer is a signal, sampled every second off the request
	 * path: none, system (system.cpu.usage) or process (process.cpu.usage).
	 */
	private CpuSignal cpu = CpuSignal.NONE;

	/** Load (0 to 1) from which the instance is overloaded and adaptive limits shrink. */
	private double high = 0.9;

	/**
	 * Load below which an overloaded instance is no longer overloaded; each step of
	 * shed-at leaves its state the same distance below its level.
	 */
	private double low = 0.75;

	/**
	 * Load (0 to 1) from which each priority (low, normal, high or a number below 100)
	 * and those below it are shed with 503; critical traffic is never shed. Unset: low
	 * from the high load on.
	 */
	private Map<String, Double> shedAt = new LinkedHashMap<>();

	/** What a shed request is told to wait (Retry-After). */
	private Duration retryAfter = Duration.ofSeconds(5);

	/**
	 * Tiers and groups whose limits shrink by a factor while the instance is overloaded.
	 */
	private Map<String, Adaptive> adaptive = new LinkedHashMap<>();

	public @Nullable Boolean getEnabled() {
		return this.enabled;
	}

	public void setEnabled(@Nullable Boolean enabled) {
		this.enabled = enabled;
	}

	public @Nullable Integer getMaxInFlight() {
		return this.maxInFlight;
	}

	public void setMaxInFlight(@Nullable Integer maxInFlight) {
		this.maxInFlight = maxInFlight;
	}

	public CpuSignal getCpu() {
		return this.cpu;
	}

	public void setCpu(CpuSignal cpu) {
		this.cpu = cpu;
	}

	public double getHigh() {
		return this.high;
	}

	public void setHigh(double high) {
		this.high = high;
	}

	public double getLow() {
		return this.low;
	}

	public void setLow(double low) {
		this.low = low;
	}

	public Map<String, Double> getShedAt() {
		return this.shedAt;
	}

	public void setShedAt(Map<String, Double> shedAt) {
		this.shedAt = shedAt;
	}

	public Duration getRetryAfter() {
		return this.retryAfter;
	}

	public void setRetryAfter(Duration retryAfter) {
		this.retryAfter = retryAfter;
	}

	public Map<String, Adaptive> getAdaptive() {
		return this.adaptive;
	}

	public void setAdaptive(Map<String, Adaptive> adaptive) {
		this.adaptive = adaptive;
	}

	/** Which CPU usage is a load signal. */
	public enum CpuSignal {

		/** CPU is no signal. */
		NONE,

		/** The whole machine's CPU usage (system.cpu.usage). */
		SYSTEM,

		/** This JVM's CPU usage (process.cpu.usage). */
		PROCESS

	}

	/**
	 * How a tier's or a group's limits adapt to the load.
	 */
	public static class Adaptive {

		/**
		 * Share of their size (above 0, at most 1) the limits are in force at while the
		 * instance is overloaded.
		 */
		private double factor = 1.0;

		public double getFactor() {
			return this.factor;
		}

		public void setFactor(double factor) {
			this.factor = factor;
		}

	}

}
