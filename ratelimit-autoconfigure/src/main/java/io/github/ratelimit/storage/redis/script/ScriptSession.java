package io.github.ratelimit.storage.redis.script;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisScriptingAsyncCommands;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;

import io.github.ratelimit.storage.StoreDecision;
import io.github.ratelimit.storage.redis.connection.RedisSession;

/**
 * One connection of the script strategy: runs the bucket script with EVALSHA, and with
 * EVAL (which also loads it) when Redis answers {@code NOSCRIPT}: after a restart, a
 * failover or {@code SCRIPT FLUSH}.
 * <p>
 * <b>Batching.</b> On a standalone connection, one call is in flight at a time: requests
 * that arrive meanwhile wait for it and then go together in the next call, each still
 * decided as a whole and in arrival order. A lone request goes at once; under load, Redis
 * reads and writes a hot bucket once per call instead of once per request, and the
 * connection carries one command per batch.
 */
final class ScriptSession implements RedisSession {

	/** The most requests in one call: bounds the time one script holds Redis. */
	static final int MAX_BATCH = 64;

	private final StatefulConnection<byte[], byte[]> connection;

	private final RedisScriptingAsyncCommands<byte[], byte[]> commands;

	private final boolean cluster;

	private final TokenBucketScript script;

	private final Queue<Queued> queue = new ConcurrentLinkedQueue<>();

	private final AtomicBoolean sending = new AtomicBoolean();

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
	 * Loads the script now, on the connecting thread, and runs it once on no request: a
	 * burst of first decisions then neither finds it missing all at once nor waits while
	 * this JVM loads the code that reads its answers. A failure here is harmless: EVALSHA
	 * falls back to EVAL.
	 */
	void load(Duration wait) {
		try {
			this.commands.scriptLoad(this.script.text()).get(wait.toMillis(), TimeUnit.MILLISECONDS);
			run(new byte[0][], this.script.arguments(List.of(), false, -1)).get(wait.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (ExecutionException | TimeoutException | RuntimeException ex) {
			// loaded on first use instead
		}
	}

	@Override
	public CompletableFuture<?> delete(byte[] key) {
		return this.commands.<Long>eval("return redis.call('DEL', KEYS[1])", ScriptOutputType.INTEGER, key)
			.toCompletableFuture();
	}

	/** Whether keys of one request may live on different nodes (Redis Cluster). */
	boolean isCluster() {
		return this.cluster;
	}

	/**
	 * Decides one request whose keys share a slot, batched with others on a standalone
	 * connection.
	 * @param request the request's checks and lease id
	 * @param keys their keys
	 * @param nowMillis the time to use, or a negative number for the server's clock
	 * @return the decision, holding no permit yet
	 */
	CompletableFuture<StoreDecision> decide(TokenBucketScript.Request request, byte[][] keys, long nowMillis) {
		if (this.cluster) {
			return run(keys, this.script.arguments(List.of(request), false, nowMillis))
				.thenApply((reply) -> TokenBucketScript.read(reply, 0, request.checks()).decision());
		}
		Queued queued = new Queued(request, keys, nowMillis, new CompletableFuture<>());
		this.queue.add(queued);
		sendQueued();
		return queued.answer();
	}

	/** Runs the script on keys that share a slot, unbatched. */
	CompletableFuture<List<Object>> run(byte[][] keys, byte[][] arguments) {
		CompletableFuture<List<Object>> result = new CompletableFuture<>();
		this.commands.<List<Object>>evalsha(this.script.digest(), ScriptOutputType.MULTI, keys, arguments)
			.whenComplete((reply, failure) -> {
				if (failure == null) {
					result.complete(reply);
				}
				else if (isNoScript(failure)) {
					this.commands.<List<Object>>eval(this.script.text(), ScriptOutputType.MULTI, keys, arguments)
						.whenComplete((again, failed) -> complete(result, again, failed));
				}
				else {
					result.completeExceptionally(failure);
				}
			});
		return result;
	}

	private void sendQueued() {
		while (!this.queue.isEmpty() && this.sending.compareAndSet(false, true)) {
			List<Queued> batch = new ArrayList<>();
			for (Queued next = this.queue.poll(); next != null; next = (batch.size() < MAX_BATCH) ? this.queue.poll()
					: null) {
				batch.add(next);
			}
			if (batch.isEmpty()) {
				this.sending.set(false);
				continue;
			}
			send(batch);
			return;
		}
	}

	private void send(List<Queued> batch) {
		List<TokenBucketScript.Request> requests = new ArrayList<>(batch.size());
		int keyCount = 0;
		for (Queued queued : batch) {
			requests.add(queued.request());
			keyCount += queued.keys().length;
		}
		byte[][] keys = new byte[keyCount][];
		int k = 0;
		for (Queued queued : batch) {
			System.arraycopy(queued.keys(), 0, keys, k, queued.keys().length);
			k += queued.keys().length;
		}
		CompletableFuture<List<Object>> reply;
		try {
			// one clock for the call: the first request's (tests pin it; otherwise every
			// request asks the server)
			reply = run(keys, this.script.arguments(requests, false, batch.get(0).nowMillis()));
		}
		catch (RuntimeException ex) {
			reply = CompletableFuture.failedFuture(ex);
		}
		reply.whenComplete((answer, failure) -> {
			this.sending.set(false);
			sendQueued();
			if (failure != null) {
				batch.forEach((queued) -> queued.answer().completeExceptionally(failure));
				return;
			}
			int from = 0;
			for (Queued queued : batch) {
				try {
					TokenBucketScript.Read read = TokenBucketScript.read(answer, from, queued.request().checks());
					from = read.end();
					queued.answer().complete(read.decision());
				}
				catch (RuntimeException ex) {
					queued.answer().completeExceptionally(ex);
				}
			}
		});
	}

	private static <T> void complete(CompletableFuture<T> future, T value, Throwable failure) {
		if (failure == null) {
			future.complete(value);
		}
		else {
			future.completeExceptionally(failure);
		}
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
		Queued queued;
		while ((queued = this.queue.poll()) != null) {
			queued.answer().completeExceptionally(new IllegalStateException("The Redis connection was closed"));
		}
	}

	private record Queued(TokenBucketScript.Request request, byte[][] keys, long nowMillis,
			CompletableFuture<StoreDecision> answer) {
	}

}
