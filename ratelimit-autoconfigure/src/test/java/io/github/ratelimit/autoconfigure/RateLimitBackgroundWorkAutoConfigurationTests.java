package io.github.ratelimit.autoconfigure;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntSupplier;

import io.lettuce.core.RedisClient;
import org.junit.jupiter.api.Test;
import org.mockito.Mockito;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.boot.web.server.context.WebServerGracefulShutdownLifecycle;

import io.github.ratelimit.control.ControlStore;
import io.github.ratelimit.storage.memory.InMemoryControlStore;
import io.github.ratelimit.storage.redis.RedisRateLimitStore;
import io.github.ratelimit.test.redis.FakeRedisServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatRuntimeException;
import static org.awaitility.Awaitility.await;

/**
 * Background work (the Redis stores' connections, the runtime control's refresh) starts
 * when the context starts, not while its beans are created, and stops when it stops.
 */
class RateLimitBackgroundWorkAutoConfigurationTests {

	private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class,
				RateLimitRedisAutoConfiguration.class, RateLimitAutoConfiguration.class))
		.withPropertyValues("ratelimit.tiers.anonymous.ip.default=10/1m");

	@Test
	void theRedisStoresConnectWhenTheContextStartsTryAgainByThemselvesAndStopWithIt() {
		// every connect fails at once: each attempt is one connection the server counts
		try (FakeRedisServer redis = FakeRedisServer.start(FakeRedisServer.Behaviour.CLOSE)) {
			int warm = warmUp(redis);
			AtomicInteger beforeStart = new AtomicInteger(-1);
			this.runner
				.withPropertyValues("spring.data.redis.url=" + redis.url(), "ratelimit.storage.type=redis",
						"ratelimit.control.refresh-interval=10m")
				.withBean(SmartInitializingSingleton.class, () -> () -> beforeStart.set(quietFor(redis::connections)))
				.run((context) -> {
					assertThat(context).hasNotFailed();
					assertThat(beforeStart).as("connects once every bean exists, before the context starts")
						.hasValue(warm);
					assertThat(context.getBean(RedisRateLimitStore.class).isConnected()).isFalse();
					// no request comes: the store tries again on its own timer
					await().atMost(Duration.ofSeconds(10)).until(() -> redis.connections() >= 3);
					context.stop();
					int stopped = quietFor(redis::connections);
					assertThat(redis.connections()).as("connects after the context stopped").isEqualTo(stopped);
					context.start();
					await().atMost(Duration.ofSeconds(10)).until(() -> redis.connections() > stopped);
				});
		}
	}

	@Test
	void theRuntimeControlRefreshesOnlyWhileTheContextRuns() {
		ControlStore store = Mockito.spy(new InMemoryControlStore(Clock.systemUTC()));
		AtomicInteger beforeStart = new AtomicInteger(-1);
		this.runner.withPropertyValues("ratelimit.control.refresh-interval=20ms")
			.withBean(ControlStore.class, () -> store)
			.withBean(SmartInitializingSingleton.class, () -> () -> beforeStart.set(quietFor(() -> reads(store))))
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(beforeStart).as("reads of the store before the context starts").hasValue(0);
				await().atMost(Duration.ofSeconds(5)).until(() -> reads(store) >= 3);
				context.stop();
				int stopped = quietFor(() -> reads(store));
				assertThat(reads(store)).isEqualTo(stopped);
				context.start();
				await().atMost(Duration.ofSeconds(5)).until(() -> reads(store) > stopped);
			});
	}

	@Test
	void backgroundWorkStartsBeforeTheWebServerAndStopsAfterIt() {
		// a lower phase starts earlier and stops later; Spring Data Redis's connection
		// factory is at phase 0
		assertThat(BackgroundWork.PHASE).isLessThan(WebServerApplicationContext.START_STOP_LIFECYCLE_PHASE)
			.isLessThan(WebServerGracefulShutdownLifecycle.SMART_LIFECYCLE_PHASE)
			.isGreaterThan(0);
		this.runner.run((context) -> {
			BackgroundWork refresh = context.getBean("rateLimitRuntimeControlRefresh", BackgroundWork.class);
			assertThat(refresh.isAutoStartup()).isTrue();
			assertThat(refresh.isRunning()).isTrue();
			context.stop();
			assertThat(refresh.isRunning()).isFalse();
		});
	}

	/**
	 * Connects once with Lettuce, so that a connect started too early would reach the
	 * server at once rather than after the JVM loaded Lettuce and Netty.
	 * @return the connections the server counted so far
	 */
	private static int warmUp(FakeRedisServer redis) {
		RedisClient client = RedisClient.create(redis.url());
		try {
			assertThatRuntimeException().isThrownBy(client::connect);
		}
		finally {
			client.shutdown(Duration.ZERO, Duration.ofSeconds(1));
		}
		return quietFor(redis::connections);
	}

	private static int reads(ControlStore store) {
		return (int) Mockito.mockingDetails(store)
			.getInvocations()
			.stream()
			.filter((invocation) -> invocation.getMethod().getName().equals("version"))
			.count();
	}

	/**
	 * The count once it stayed the same for a second: what background work already under
	 * way did has landed, and work that would start (or was started) does so meanwhile.
	 */
	private static int quietFor(IntSupplier count) {
		AtomicInteger last = new AtomicInteger(-1);
		await().pollInterval(Duration.ofMillis(50))
			.during(Duration.ofSeconds(1))
			.atMost(Duration.ofSeconds(20))
			.until(() -> {
				int now = count.getAsInt();
				return last.getAndSet(now) == now;
			});
		return last.get();
	}

}
