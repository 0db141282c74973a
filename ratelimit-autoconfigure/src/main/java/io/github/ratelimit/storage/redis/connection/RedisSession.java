package io.github.ratelimit.storage.redis.connection;

/**
 * One open connection of a Redis store and whatever the store built on it.
 */
public interface RedisSession {

	/**
	 * Whether the connection is up (neither closed nor disconnected and reconnecting).
	 */
	boolean isOpen();

	/** Deletes a bucket's key. */
	java.util.concurrent.CompletableFuture<?> delete(byte[] key);

	/** Closes the connection (never called on a request thread). */
	void close();

}
