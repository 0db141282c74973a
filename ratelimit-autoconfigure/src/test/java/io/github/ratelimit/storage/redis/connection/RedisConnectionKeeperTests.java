package io.github.ratelimit.storage.redis.connection;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.api.StatefulConnection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.mockito.Mockito.mock;

/**
 * Tests for {@link RedisConnectionKeeper} with a Redis that never answers (on a clock of
 * the test's own) or a connector of the test's, started and stopped as Spring's lifecycle
 * does.
 */
@ExtendWith(OutputCaptureExtension.class)
class RedisConnectionKeeperTests {

	@Test
	void aStoreThatNeverConnectedKeepsSayingSo(CapturedOutput output) {
		AtomicLong now = new AtomicLong(1_000_000_000L);
		AtomicInteger attempts = new AtomicInteger();
		RedisConnector down = () -> {
			attempts.incrementAndGet();
			throw new RedisConnectionException("Connection refused");
		};
		try (RedisConnectionKeeper<RedisSession> keeper = new RedisConnectionKeeper<>(down, (connection) -> {
			throw new IllegalStateException("never connects");
		}, Duration.ofSeconds(1), Duration.ofSeconds(1), now::get)) {
			attempt(keeper, attempts, 1);
			assertThat(output).containsOnlyOnce("Cannot connect to Redis for rate limiting");
			now.addAndGet(Duration.ofSeconds(30).toNanos());
			attempt(keeper, attempts, 2);
			assertThat(output).doesNotContain("Still cannot connect");
			now.addAndGet(Duration.ofSeconds(31).toNanos());
			attempt(keeper, attempts, 3);
			assertThat(output).containsOnlyOnce("Still cannot connect to Redis for rate limiting after 61 s");
		}
	}

	@Test
	void aConnectThatNeitherOpensNorFailsIsSaidOnceAMinute(CapturedOutput output) throws Exception {
		AtomicLong now = new AtomicLong(1_000_000_000L);
		CountDownLatch release = new CountDownLatch(1);
		AtomicInteger attempts = new AtomicInteger();
		RedisConnector stuck = () -> {
			attempts.incrementAndGet();
			try {
				release.await();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			throw new RedisConnectionException("released");
		};
		try (RedisConnectionKeeper<RedisSession> keeper = new RedisConnectionKeeper<>(stuck, (connection) -> {
			throw new IllegalStateException("never connects");
		}, Duration.ofSeconds(1), Duration.ofSeconds(1), now::get)) {
			assertThat(keeper.session()).isNull();
			await().atMost(Duration.ofSeconds(5)).until(() -> attempts.get() == 1);
			now.addAndGet(Duration.ofSeconds(10).toNanos());
			assertThat(keeper.session()).isNull();
			assertThat(output).doesNotContain("under way");
			now.addAndGet(Duration.ofSeconds(6).toNanos());
			assertThat(keeper.session()).isNull();
			assertThat(keeper.session()).isNull();
			assertThat(output).containsOnlyOnce("A connect to Redis for rate limiting has been under way for 16 s");
			now.addAndGet(Duration.ofSeconds(60).toNanos());
			assertThat(keeper.session()).isNull();
			assertThat(output).contains("has been under way for 76 s");
			// still one attempt: a stuck connect is not piled on
			assertThat(attempts).hasValue(1);
			// ends before the keeper closes, so that nothing of it reaches another test's
			// output
			release.countDown();
			await().atMost(Duration.ofSeconds(5)).until(() -> !keeper.isConnecting());
		}
		finally {
			release.countDown();
		}
	}

	@Test
	void aStartedKeeperTriesAFailedFirstConnectAgainWithoutWaitingForARequest(CapturedOutput output) {
		AtomicInteger attempts = new AtomicInteger();
		RedisConnector down = () -> {
			attempts.incrementAndGet();
			throw new RedisConnectionException("Connection refused");
		};
		try (RedisConnectionKeeper<TestSession> keeper = new RedisConnectionKeeper<>(down, TestSession::new,
				Duration.ofSeconds(1), Duration.ofMillis(50), System::nanoTime)) {
			keeper.start();
			// nothing asks for a session: the keeper's own timer tries again
			await().atMost(Duration.ofSeconds(5)).until(() -> attempts.get() >= 3);
			assertThat(output).containsOnlyOnce("Cannot connect to Redis for rate limiting");
			keeper.stop();
			await().atMost(Duration.ofSeconds(5)).until(() -> !keeper.isConnecting());
			int stopped = attempts.get();
			// no attempt while stopped
			await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2)).until(() -> attempts.get() == stopped);
			keeper.start();
			await().atMost(Duration.ofSeconds(5)).until(() -> attempts.get() > stopped);
		}
	}

	@Test
	void aStartedKeeperConnectsWhenRedisComesUpWithoutARequest() {
		AtomicInteger attempts = new AtomicInteger();
		RedisConnector upOnThirdAttempt = () -> {
			if (attempts.incrementAndGet() < 3) {
				throw new RedisConnectionException("Connection refused");
			}
			return mock();
		};
		try (RedisConnectionKeeper<TestSession> keeper = new RedisConnectionKeeper<>(upOnThirdAttempt, TestSession::new,
				Duration.ofSeconds(1), Duration.ofMillis(50), System::nanoTime)) {
			keeper.start();
			await().atMost(Duration.ofSeconds(5)).until(keeper::isConnected);
			assertThat(attempts).hasValue(3);
		}
	}

	@Test
	void stopClosesTheConnectionAndDoesNotWaitForAConnectUnderWay() throws Exception {
		CountDownLatch release = new CountDownLatch(1);
		AtomicInteger attempts = new AtomicInteger();
		List<TestSession> sessions = new CopyOnWriteArrayList<>();
		RedisConnector slowSecondConnect = () -> {
			if (attempts.incrementAndGet() > 1) {
				try {
					release.await();
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}
			return mock();
		};
		try (RedisConnectionKeeper<TestSession> keeper = new RedisConnectionKeeper<>(slowSecondConnect,
				(connection) -> {
					TestSession session = new TestSession(connection);
					sessions.add(session);
					return session;
				}, Duration.ofSeconds(1), Duration.ofMillis(50), System::nanoTime)) {
			keeper.start();
			await().atMost(Duration.ofSeconds(5)).until(keeper::isConnected);
			keeper.stop();
			assertThat(keeper.isConnected()).isFalse();
			assertThat(sessions.get(0).isOpen()).as("the connection of the stopped keeper").isFalse();
			keeper.start();
			await().atMost(Duration.ofSeconds(5)).until(keeper::isConnecting);
			long before = System.nanoTime();
			keeper.stop();
			assertThat(Duration.ofNanos(System.nanoTime() - before)).as("a stop during a connect")
				.isLessThan(Duration.ofSeconds(1));
			release.countDown();
			await().atMost(Duration.ofSeconds(5)).until(() -> !keeper.isConnecting());
			// the connect that ended after the stop: its connection is closed, not kept
			assertThat(sessions).hasSize(2);
			assertThat(sessions.get(1).isOpen()).isFalse();
			assertThat(keeper.isConnected()).isFalse();
		}
		finally {
			release.countDown();
		}
	}

	private static void attempt(RedisConnectionKeeper<RedisSession> keeper, AtomicInteger attempts, int expected) {
		assertThat(keeper.session()).isNull();
		await().atMost(Duration.ofSeconds(5)).until(() -> attempts.get() == expected);
		// the attempt's bookkeeping ends just after the connector threw
		await().atMost(Duration.ofSeconds(5)).until(() -> !keeper.isConnecting());
	}

	/** A session that is open until closed. */
	private static final class TestSession implements RedisSession {

		private volatile boolean open = true;

		TestSession(StatefulConnection<byte[], byte[]> connection) {
		}

		@Override
		public boolean isOpen() {
			return this.open;
		}

		@Override
		public CompletableFuture<?> delete(byte[] key) {
			return CompletableFuture.completedFuture(null);
		}

		@Override
		public void close() {
			this.open = false;
		}

	}

}
