package io.github.ratelimit.bench.peer;

import java.net.URI;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Profile;
import redis.clients.jedis.JedisPool;
import redis.clients.jedis.JedisPoolConfig;

/**
 * The Jedis pool that the starter's {@code redis-jedis} cache option needs (it looks for a
 * {@link JedisPool} bean). REDIS_URL is required: the benchmark passes the URL of its own server. The
 * pool is larger than the benchmark's concurrency, so no request waits for a connection, and does not
 * test connections on borrow or return (that would add a PING per request).
 */
@Configuration(proxyBeanMethods = false)
@Profile("redis")
class JedisPoolConfiguration {

	@Bean(destroyMethod = "close")
	JedisPool jedisPool(@Value("${REDIS_URL}") String url) {
		JedisPoolConfig config = new JedisPoolConfig();
		config.setMaxTotal(128);
		config.setMaxIdle(128);
		config.setMinIdle(16);
		return new JedisPool(config, URI.create(url));
	}

}
