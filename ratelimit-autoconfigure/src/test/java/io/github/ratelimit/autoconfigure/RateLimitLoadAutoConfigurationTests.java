package io.github.ratelimit.autoconfigure;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;

import io.github.ratelimit.load.LoadSignal;
import io.github.ratelimit.load.Priority;
import io.github.ratelimit.policy.PolicyTable;
import io.github.ratelimit.test.ManualTimeMeter;

import static io.github.ratelimit.autoconfigure.StartFailures.assertBindFailure;
import static io.github.ratelimit.autoconfigure.StartFailures.assertStartFailure;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Load shedding, adaptive limits and the warm-up as configured ({@code ratelimit.load},
 * {@code ratelimit.warm-up}): off unless configured, the application's signal and clock
 * used, and the start failures that name a bad value.
 */
class RateLimitLoadAutoConfigurationTests {

	private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RateLimitAutoConfiguration.class))
		.withPropertyValues("ratelimit.groups.export.paths=/export/**", "ratelimit.tiers.anonymous.ip.default=10/1m",
				"ratelimit.tiers.premium.user.default=100/1m");

	@Test
	void offUnlessConfigured() {
		this.runner.run((context) -> {
			assertThat(context).hasNotFailed();
			RateLimitLoad load = context.getBean(RateLimitLoad.class);
			assertThat(load.shedder()).isNull();
			assertThat(load.scaled()).isNull();
			assertThat(context).doesNotHaveBean(CpuSampling.class);
		});
	}

	@Test
	void shedAtSwitchesSheddingOnWithPrioritiesOfTiersAndGroups() {
		this.runner
			.withPropertyValues("ratelimit.load.max-in-flight=100", "ratelimit.load.shed-at.low=0.8",
					"ratelimit.tiers.anonymous.priority=low", "ratelimit.tiers.premium.priority=70",
					"ratelimit.groups.export.priority=critical")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				RateLimitLoad load = context.getBean(RateLimitLoad.class);
				assertThat(load.shedder()).isNotNull();
				assertThat(load.shedder().priority("anonymous", "default")).isEqualTo(Priority.LOW);
				assertThat(load.shedder().priority("premium", "default")).isEqualTo(new Priority(70));
				assertThat(load.shedder().priority("anonymous", "export")).isEqualTo(Priority.CRITICAL);
				assertThat(load.shedder().priority("authenticated", "default")).isEqualTo(Priority.NORMAL);
				assertThat(load.shedder().retryAfterSeconds()).isEqualTo(5);
				// nobody in flight: nobody shed
				assertThat(load.shedder().shed("anonymous", "default")).isNull();
				assertThat(load.scaled()).isNull();
			});
	}

	@Test
	void aTierMayNameOnlyItsPriority() {
		this.runner
			.withPropertyValues("ratelimit.load.max-in-flight=100", "ratelimit.load.shed-at.low=0.8",
					"ratelimit.tiers.vip.priority=critical")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(RateLimitLoad.class).shedder().priority("vip", "default"))
					.isEqualTo(Priority.CRITICAL);
			});
	}

	@Test
	void enabledWithoutASignalStopsTheStart() {
		this.runner.withPropertyValues("ratelimit.load.enabled=true")
			.run((context) -> assertThat(assertStartFailure(context, "ratelimit.load.max-in-flight", "unset",
					"ratelimit.load.max-in-flight=200")
				.getDescription()).contains("need a load signal"));
	}

	@Test
	void theApplicationsSignalIsTheLoad() {
		this.runner.withPropertyValues("ratelimit.load.shed-at.normal=0.5")
			.withBean(LoadSignal.class, () -> () -> 0.7)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				RateLimitLoad load = context.getBean(RateLimitLoad.class);
				assertThat(load.signal().level()).isEqualTo(0.7);
				assertThat(load.shedder().shed("anonymous", "default")).isEqualTo(Priority.NORMAL);
				assertThat(load.cpu()).isNull();
			});
	}

	@Test
	void cpuIsSampledWhenAsked() {
		this.runner.withPropertyValues("ratelimit.load.cpu=process", "ratelimit.load.shed-at.low=0.9")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context).hasSingleBean(CpuSampling.class);
				assertThat(context.getBean(CpuSampling.class).isRunning()).isTrue();
				assertThat(context.getBean(RateLimitLoad.class).cpu()).isNotNull();
			});
	}

	@Test
	void adaptiveLimitsAndTheWarmUpScaleLimits() {
		ManualTimeMeter clock = new ManualTimeMeter();
		this.runner
			.withPropertyValues("ratelimit.load.max-in-flight=100", "ratelimit.load.adaptive.anonymous.factor=0.5",
					"ratelimit.warm-up.period=30s")
			.withBean(ManualTimeMeter.class, () -> clock)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				RateLimitLoad load = context.getBean(RateLimitLoad.class);
				assertThat(load.scaled()).isNotNull();
				// adaptive alone switches shedding on, with its default step
				assertThat(load.shedder()).isNotNull();
				assertThat(load.scaled()
					.inForce(context.getBean(PolicyTable.class).policies("anonymous", "default"), "anonymous",
							"default")
					.get(0)
					.limit()
					.bandwidths()
					.get(0)
					.quota()).isEqualTo(2);
				clock.advance(Duration.ofSeconds(30));
				assertThat(load.scaled()
					.inForce(context.getBean(PolicyTable.class).policies("anonymous", "default"), "anonymous",
							"default")
					.get(0)
					.limit()
					.bandwidths()
					.get(0)
					.quota()).isEqualTo(10);
			});
	}

	@Test
	void aBadPriorityStopsTheStartInTheBinder() {
		this.runner.withPropertyValues("ratelimit.tiers.anonymous.priority=urgent")
			.run((context) -> assertBindFailure(context, "ratelimit.tiers.anonymous.priority", "urgent",
					PriorityConverter.EXAMPLE));
	}

	@Test
	void sheddingCriticalTrafficStopsTheStart() {
		this.runner.withPropertyValues("ratelimit.load.max-in-flight=100", "ratelimit.load.shed-at.critical=0.99")
			.run((context) -> assertStartFailure(context, "ratelimit.load.shed-at.critical", "0.99",
					"ratelimit.load.shed-at.high=0.98"));
	}

	@Test
	void aHigherPrioritySheddingBeforeALowerOneStopsTheStart() {
		this.runner
			.withPropertyValues("ratelimit.load.max-in-flight=100", "ratelimit.load.shed-at.low=0.9",
					"ratelimit.load.shed-at.normal=0.8")
			.run((context) -> assertStartFailure(context, "ratelimit.load.shed-at.normal", "0.8",
					"ratelimit.load.shed-at.normal=0.9"));
	}

	@Test
	void aShedLevelOutsideZeroToOneStopsTheStart() {
		this.runner.withPropertyValues("ratelimit.load.max-in-flight=100", "ratelimit.load.shed-at.low=1.5")
			.run((context) -> assertStartFailure(context, "ratelimit.load.shed-at.low", "1.5",
					"ratelimit.load.shed-at.low=0.8"));
	}

	@Test
	void aLowAboveHighStopsTheStart() {
		this.runner
			.withPropertyValues("ratelimit.load.max-in-flight=100", "ratelimit.load.shed-at.low=0.8",
					"ratelimit.load.high=0.8", "ratelimit.load.low=0.9")
			.run((context) -> assertStartFailure(context, "ratelimit.load.low", "0.9", "ratelimit.load.low=0.6"));
	}

	@Test
	void aZeroMaxInFlightStopsTheStart() {
		this.runner.withPropertyValues("ratelimit.load.max-in-flight=0", "ratelimit.load.shed-at.low=0.8")
			.run((context) -> assertStartFailure(context, "ratelimit.load.max-in-flight", "0",
					"ratelimit.load.max-in-flight=200"));
	}

	@Test
	void anAdaptiveFactorOfAnUnknownTierOrGroupStopsTheStart() {
		this.runner
			.withPropertyValues("ratelimit.load.max-in-flight=100", "ratelimit.load.adaptive.anonymuos.factor=0.5")
			.run((context) -> assertThat(assertStartFailure(context, "ratelimit.load.adaptive.anonymuos.factor", "0.5",
					"ratelimit.load.adaptive.anonymous.factor=0.5")
				.getDescription()).contains("is no tier or group"));
	}

	@Test
	void anAdaptiveFactorAboveOneStopsTheStart() {
		this.runner.withPropertyValues("ratelimit.load.max-in-flight=100", "ratelimit.load.adaptive.anonymous.factor=2")
			.run((context) -> assertStartFailure(context, "ratelimit.load.adaptive.anonymous.factor", "2.0",
					"ratelimit.load.adaptive.anonymous.factor=0.5"));
	}

	@Test
	void aWarmUpStartingAtNothingStopsTheStart() {
		this.runner.withPropertyValues("ratelimit.warm-up.period=30s", "ratelimit.warm-up.initial=0")
			.run((context) -> assertStartFailure(context, "ratelimit.warm-up.initial", "0.0",
					"ratelimit.warm-up.initial=0.25"));
	}

	@Test
	void aNegativeRetryAfterStopsTheStart() {
		this.runner
			.withPropertyValues("ratelimit.load.max-in-flight=100", "ratelimit.load.shed-at.low=0.8",
					"ratelimit.load.retry-after=-1s")
			.run((context) -> assertStartFailure(context, "ratelimit.load.retry-after", "PT-1S",
					"ratelimit.load.retry-after=5s"));
	}

}
