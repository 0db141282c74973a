package io.github.ratelimit.storage.redis;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisScriptingAsyncCommands;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;

/**
 * One connection of the script strategy: runs the token-bucket script with EVALSHA, and with EVAL (which
 * also loads it) when Redis answers {@code NOSCRIPT}: after a restart, a failover or {@code SCRIPT FLUSH}.
 */
final class ScriptSession implements RedisSession {

	private final StatefulConnection<byte[], byte[]> connection;

	private final RedisScriptingAsyncCommands<byte[], byte[]> commands;

	private final boolean cluster;

	private final TokenBucketScript script;

	ScriptSession(StatefulConnection<byte[], byte[]> connection, TokenBucketScript script) {
		this.connection = connection;
		this.script = script;
		if (connection instanceof StatefulRedisClusterConnection<byte[], byte[]> clusterConnection) {
			this.commands = clusterConnection.async();
			this.cluster = true;
		}
		else if (connection instanceof StatefulRedisConnection<byte[], byte[]> standalone) {
			this.commands = standalone.async();
			this.cluster = false;
		}
		else {
			connection.closeAsync();
			throw new IllegalArgumentException("Unsupported Redis connection " + connection.getClass().getName());
		}
	}

	/**
	 * Loads the script now, on the connecting thread, so that a burst of first decisions does not find it
	 * missing all at once. A failure here is harmless: EVALSHA falls back to EVAL.
	 */
	void load(Duration wait) {
		try {
			this.commands.scriptLoad(this.script.text()).get(wait.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (ExecutionException | TimeoutException | RuntimeException ex) {
			// loaded on first use instead
		}
	}

	/** Whether keys of one request may live on different nodes (Redis Cluster). */
	boolean isCluster() {
		return this.cluster;
	}

	/** Runs the script on keys that share a slot. */
	CompletableFuture<List<Object>> run(byte[][] keys, byte[][] arguments) {
		CompletableFuture<List<Object>> sha = this.commands
			.<List<Object>>evalsha(this.script.digest(), ScriptOutputType.MULTI, keys, arguments)
			.toCompletableFuture();
		return sha.handle((reply, failure) -> (failure == null) ? CompletableFuture.completedFuture(reply)
				: isNoScript(failure) ? eval(keys, arguments) : CompletableFuture.<List<Object>>failedFuture(failure))
			.thenCompose((reply) -> reply);
	}

	private CompletableFuture<List<Object>> eval(byte[][] keys, byte[][] arguments) {
		return this.commands.<List<Object>>eval(this.script.text(), ScriptOutputType.MULTI, keys, arguments)
			.toCompletableFuture();
	}

	private static boolean isNoScript(Throwable failure) {
		Throwable cause = (failure instanceof CompletionException && failure.getCause() != null) ? failure.getCause()
				: failure;
		return cause instanceof RedisNoScriptException;
	}

	@Override
	public boolean isOpen() {
		return this.connection.isOpen();
	}

	@Override
	public void close() {
		this.connection.close();
	}

}
