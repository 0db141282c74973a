package io.github.ratelimit.storage.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.NettyCustomizer;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.github.ratelimit.policy.Dimension;
import io.github.ratelimit.policy.LimitParser;
import io.github.ratelimit.policy.Policy;
import io.github.ratelimit.storage.LimitCheck;
import io.github.ratelimit.storage.StoreDecision;
import io.github.ratelimit.storage.StoreKeys;
import io.github.ratelimit.storage.redis.bucket4j.Bucket4jRedisRateLimitStore;
import io.github.ratelimit.storage.redis.connection.CircuitBreaker;
import io.github.ratelimit.storage.redis.connection.RedisConnector;
import io.github.ratelimit.storage.redis.script.RedisScriptRateLimitStore;
import io.github.ratelimit.test.redis.RedisTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A slow moment is not an outage: this JVM reads every answer of Redis
 * {@link #READ_DELAY} late (a handler in the store's own Netty pipeline holds each read,
 * as a starved event loop, a GC or class loading would), while Redis itself is healthy. A
 * burst of parallel decisions on one key, with the default timeout, is still decided
 * exactly on both strategies, and none gets the failure mode. (With the former 50 ms
 * silence, the concurrency cap admitted 4 of 6 and the quota every request.)
 */
class SlowClientBurstTests {

	/** Longer than the former timeout (50 ms), shorter than the default silence (1 s). */
	static final Duration READ_DELAY = Duration.ofMillis(300);

	private ClientResources resources;

	private RedisClient client;

	private RedisRateLimitStore<?> store;

	@AfterEach
	void close() {
		if (this.store != null) {
			this.store.close();
		}
		if (this.client != null) {
			this.client.shutdown();
		}
		if (this.resources != null) {
			this.resources.shutdown();
		}
	}

	@ParameterizedTest(name = "{0}: {2} at once against {1}")
	@CsvSource(delimiter = ';', value = { "script; 2 concurrent; 6; 2", "script; 6/week; 8; 6", "script; 10/1h; 20; 10",
			"bucket4j; 2/1h; 6; 2", "bucket4j; 10/1h; 20; 10" })
	void aBurstOnAJvmThatReadsAnswersLateIsDecidedExactly(String strategy, String limit, int requests, int admitted)
			throws Exception {
		this.store = slowStore(strategy);
		LimitCheck check = check(limit);
		List<StoreDecision> decisions = burst(check, requests);
		assertThat(decisions.stream().filter(StoreDecision::admitted).count()).as("admitted of %d", requests)
			.isEqualTo(admitted);
		assertThat(this.store.circuitBreaker().state()).isEqualTo(CircuitBreaker.State.CLOSED);
		decisions.forEach((decision) -> decision.permits().release());
	}

	/**
	 * Every request at once, each on its own thread as web requests are; any failure
	 * fails the test.
	 */
	private List<StoreDecision> burst(LimitCheck check, int requests) throws Exception {
		ExecutorService threads = Executors.newFixedThreadPool(requests);
		try {
			CountDownLatch start = new CountDownLatch(1);
			List<Future<StoreDecision>> futures = new ArrayList<>();
			for (int i = 0; i < requests; i++) {
				futures.add(threads.submit(() -> {
					start.await();
					return this.store.decide(List.of(check));
				}));
			}
			start.countDown();
			List<StoreDecision> decisions = new ArrayList<>();
			for (Future<StoreDecision> future : futures) {
				// a StoreUnavailableException (the failure mode) fails the test here
				decisions.add(future.get(30, TimeUnit.SECONDS));
			}
			return decisions;
		}
		finally {
			threads.shutdownNow();
		}
	}

	private RedisRateLimitStore<?> slowStore(String strategy) {
		this.resources = ClientResources.builder().nettyCustomizer(new NettyCustomizer() {

			@Override
			public void afterChannelInitialized(Channel channel) {
				channel.pipeline().addFirst(new LateReads(READ_DELAY));
			}

		}).build();
		this.client = RedisClient.create(this.resources, RedisURI.create(RedisTestServer.url()));
		RedisConnector connector = RedisConnector.of(this.client);
		RedisRateLimitStore<?> slow = switch (strategy) {
			case "script" ->
				new RedisScriptRateLimitStore(connector, RedisRateLimitStore.DEFAULT_TIMEOUT, new CircuitBreaker());
			default ->
				new Bucket4jRedisRateLimitStore(connector, RedisRateLimitStore.DEFAULT_TIMEOUT, new CircuitBreaker());
		};
		slow.start();
		await().atMost(Duration.ofSeconds(30)).until(slow::isConnected);
		return slow;
	}

	private static LimitCheck check(String limit) {
		Policy policy = new Policy("test", Dimension.ORG, "default", LimitParser.parse(limit));
		return LimitCheck.enforced(policy,
				new StoreKeys(RedisTestServer.uniqueKeyPrefix("slow-client")).key(policy, "acme"), 1);
	}

	/**
	 * Hands every read on to Lettuce late, in order: the event loop runs its scheduled
	 * tasks by deadline.
	 */
	private static final class LateReads extends ChannelInboundHandlerAdapter {

		private final long delayNanos;

		LateReads(Duration delay) {
			this.delayNanos = delay.toNanos();
		}

		@Override
		public void channelRead(ChannelHandlerContext context, Object message) {
			context.executor().schedule(() -> context.fireChannelRead(message), this.delayNanos, TimeUnit.NANOSECONDS);
		}

		@Override
		public void channelReadComplete(ChannelHandlerContext context) {
			context.executor().schedule(context::fireChannelReadComplete, this.delayNanos, TimeUnit.NANOSECONDS);
		}

	}

}
