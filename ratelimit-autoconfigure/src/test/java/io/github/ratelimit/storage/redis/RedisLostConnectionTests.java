package io.github.ratelimit.storage.redis;

import java.io.IOException;
import java.util.concurrent.CompletionException;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which failures of a decision mean the connection is lost ({@code not-connected}, said
 * as such in the failure-mode log and health), rather than an error of Redis: Lettuce
 * rejecting a command while it is disconnected can come before the connection itself
 * reads as closed.
 */
class RedisLostConnectionTests {

	@Test
	void aCommandRejectedWhileDisconnectedIsALostConnection() {
		RedisException rejected = new RedisException("Currently not connected. Commands are rejected.");
		assertThat(RedisFailures.lostConnection(rejected)).isTrue();
		assertThat(RedisFailures.lostConnection(new CompletionException(rejected))).isTrue();
	}

	@Test
	void ioFailuresAreALostConnection() {
		assertThat(RedisFailures.lostConnection(new RedisConnectionException("Connection refused"))).isTrue();
		assertThat(RedisFailures.lostConnection(new RedisException(new IOException("Connection reset")))).isTrue();
	}

	@Test
	void anErrorRedisAnsweredOrAnyOtherFailureIsNot() {
		assertThat(RedisFailures.lostConnection(new RedisCommandExecutionException("OOM command not allowed")))
			.isFalse();
		assertThat(RedisFailures.lostConnection(new RedisException("Connection closed by peer?"))).isFalse();
		assertThat(RedisFailures.lostConnection(new IllegalStateException("bug"))).isFalse();
	}

}
