package io.github.ratelimit.behaviour;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.NettyCustomizer;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;

import io.github.ratelimit.storage.redis.RedisRateLimitStore;
import io.github.ratelimit.storage.redis.connection.CircuitBreaker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

/**
 * A slow moment is not an outage, over HTTP with the default settings: two instances
 * share one healthy Redis, but each reads every answer of Redis {@link #READ_DELAY} late
 * (the application's Lettuce {@link ClientResources} hold every read, as a starved
 * machine would), and ten requests of one org arrive at once against its 6/week quota.
 * Exactly six are admitted, and none gets the failure mode. (With the former 50 ms
 * silence, every one of them was.)
 */
class SlowClientTwoInstancesTests {

	private static final Duration READ_DELAY = Duration.ofMillis(300);

	private static final int REQUESTS = 10;

	@ParameterizedTest
	@EnumSource(Stack.class)
	void anOrgQuotaHoldsExactlyOnJvmsThatReadRedisLate(Stack stack) {
		Map<String, String> properties = new LinkedHashMap<>(Storage.REDIS.properties(getClass().getSimpleName()));
		for (int u = 0; u < REQUESTS; u++) {
			properties.put("ratelimit.identity.api-keys[" + u + "].key", "slow-key-" + u);
			properties.put("ratelimit.identity.api-keys[" + u + "].user", "slow-user-" + u);
			properties.put("ratelimit.identity.api-keys[" + u + "].org", "slow-org");
			properties.put("ratelimit.identity.api-keys[" + u + "].tier", "slow");
		}
		properties.put("ratelimit.tiers.slow.org.burst", "6/week");
		try (BehaviourApp first = BehaviourApp.start(stack, properties, LateReads.class).awaitStoreConnected();
				BehaviourApp second = BehaviourApp.start(stack, properties, LateReads.class).awaitStoreConnected()) {
			ConcurrentLoad load = ConcurrentLoad.run(REQUESTS,
					(i) -> () -> Http
						.send(((i % 2 == 0) ? first : second).port(), "GET", "/api/burst", "X-Forwarded-For",
								"198.51.100." + (100 + i), "X-API-Key", "slow-key-" + i)
						.status());
			System.out
				.println(load.report(stack + " two instances reading Redis " + READ_DELAY.toMillis() + " ms late"));
			assertThat(load.statuses()).containsOnly(entry(200, 6L), entry(429, (long) REQUESTS - 6));
			for (BehaviourApp app : new BehaviourApp[] { first, second }) {
				assertThat(storeErrors(app)).as("decisions that got the failure mode").isZero();
				assertThat(app.context().getBean(RedisRateLimitStore.class).circuitBreaker().state())
					.isEqualTo(CircuitBreaker.State.CLOSED);
			}
		}
	}

	private static double storeErrors(BehaviourApp app) {
		return app.context()
			.getBean(MeterRegistry.class)
			.find("ratelimit.store.errors")
			.functionCounters()
			.stream()
			.mapToDouble(FunctionCounter::count)
			.sum();
	}

	/**
	 * The application's Lettuce resources, which the starter's client shares: every read
	 * arrives late.
	 */
	@TestConfiguration(proxyBeanMethods = false)
	static class LateReads {

		@Bean(destroyMethod = "shutdown")
		ClientResources lettuceClientResources() {
			return ClientResources.builder().nettyCustomizer(new NettyCustomizer() {

				@Override
				public void afterChannelInitialized(Channel channel) {
					channel.pipeline().addFirst(new LateReadHandler());
				}

			}).build();
		}

	}

	/** Hands every read on to Lettuce late, in order. */
	private static final class LateReadHandler extends ChannelInboundHandlerAdapter {

		@Override
		public void channelRead(ChannelHandlerContext context, Object message) {
			context.executor()
				.schedule(() -> context.fireChannelRead(message), READ_DELAY.toNanos(), TimeUnit.NANOSECONDS);
		}

		@Override
		public void channelReadComplete(ChannelHandlerContext context) {
			context.executor().schedule(context::fireChannelReadComplete, READ_DELAY.toNanos(), TimeUnit.NANOSECONDS);
		}

	}

}
