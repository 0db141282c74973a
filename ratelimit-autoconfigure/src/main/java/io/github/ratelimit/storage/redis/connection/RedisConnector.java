package io.github.ratelimit.storage.redis.connection;

import java.util.function.Supplier;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.codec.ByteArrayCodec;

/**
 * Opens the store's own Redis connection. The store calls it on a background thread,
 * never on a request thread, so it may block (a connect can take Lettuce's connect
 * timeout); it is called again when a connection is lost for good.
 * <p>
 * The connection must be a {@code StatefulRedisConnection} (standalone, Sentinel,
 * master/replica) or a {@code StatefulRedisClusterConnection}, with {@code byte[]} keys
 * and values.
 */
@FunctionalInterface
public interface RedisConnector {

	/**
	 * Opens a new connection.
	 * @return an open connection; the store owns and closes it
	 * @throws RuntimeException when Redis cannot be reached (the store tries again later)
	 */
	StatefulConnection<byte[], byte[]> connect();

	/**
	 * A connector that opens connections with a Lettuce client, to the client's default
	 * URI.
	 * @param client a {@link RedisClient} or a {@link RedisClusterClient}
	 * @return the connector
	 */
	static RedisConnector of(AbstractRedisClient client) {
		return of(() -> client);
	}

	/**
	 * A connector that looks the client up when it connects, for clients that exist only
	 * once something has started, such as Spring Data's
	 * {@code LettuceConnectionFactory::getRequiredNativeClient}. Connections are the
	 * store's own: the client's shared connection and options are left alone.
	 * @param client supplies a {@link RedisClient} or a {@link RedisClusterClient}
	 * @return the connector
	 */
	static RedisConnector of(Supplier<? extends AbstractRedisClient> client) {
		return () -> {
			AbstractRedisClient redisClient = client.get();
			if (redisClient instanceof RedisClient standalone) {
				return standalone.connect(ByteArrayCodec.INSTANCE);
			}
			if (redisClient instanceof RedisClusterClient cluster) {
				return cluster.connect(ByteArrayCodec.INSTANCE);
			}
			throw new IllegalArgumentException("Unsupported Redis client " + redisClient.getClass().getName()
					+ "; use a RedisClient or a RedisClusterClient");
		};
	}

}
