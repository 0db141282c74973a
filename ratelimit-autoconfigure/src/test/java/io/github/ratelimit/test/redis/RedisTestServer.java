package io.github.ratelimit.test.redis;

import java.net.URI;
import java.util.UUID;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * The real Redis that integration tests talk to, one per JVM, found in this order:
 * <ol>
 * <li>the URL in the environment variable {@value #URL_VARIABLE}, when set;</li>
 * <li>a Testcontainers container, when a Docker engine answers;</li>
 * <li>a {@code redis-server} from the {@code PATH}, started on a free loopback port and
 * stopped when the JVM exits.</li>
 * </ol>
 * The server may be shared with other tests and other programs: never flush it; give each
 * test its own key prefix ({@link #uniqueKeyPrefix(String)}).
 * <p>
 * In a {@code @SpringBootTest}: <pre class="code">
 * &#64;DynamicPropertySource
 * static void redis(DynamicPropertyRegistry registry) {
 * 	RedisTestServer.registerProperties(registry);
 * }
 * </pre>
 */
public final class RedisTestServer {

	/** The environment variable naming an external Redis ({@code redis://host:port}). */
	public static final String URL_VARIABLE = "RATELIMIT_REDIS_URL";

	private static final Logger logger = LoggerFactory.getLogger(RedisTestServer.class);

	private static @Nullable String url;

	private RedisTestServer() {
	}

	/**
	 * The URL of the Redis for tests, starting one on first use.
	 * @return a {@code redis://} URL
	 * @throws IllegalStateException when no Redis can be had, saying how to provide one
	 */
	public static synchronized String url() {
		if (url == null) {
			url = resolve();
		}
		return url;
	}

	/** The host of {@link #url()}. */
	public static String host() {
		String host = URI.create(url()).getHost();
		return (host != null) ? host : "127.0.0.1";
	}

	/** The port of {@link #url()}. */
	public static int port() {
		int port = URI.create(url()).getPort();
		return (port != -1) ? port : 6379;
	}

	/**
	 * Points Spring Boot's Redis support ({@code spring.data.redis.url}) at
	 * {@link #url()}.
	 */
	public static void registerProperties(DynamicPropertyRegistry registry) {
		registry.add("spring.data.redis.url", RedisTestServer::url);
	}

	/**
	 * A key prefix no other test run uses, so tests can share a Redis without flushing
	 * it.
	 * @param name a readable part, such as the test's name
	 * @return a prefix ending with {@code :}
	 */
	public static String uniqueKeyPrefix(String name) {
		return "rl-test:" + name + ":" + UUID.randomUUID().toString().substring(0, 8) + ":";
	}

	private static String resolve() {
		String external = System.getenv(URL_VARIABLE);
		if (external != null && !external.isBlank()) {
			logger.info("Tests use the Redis at {} ({})", external, URL_VARIABLE);
			return external.trim();
		}
		if (DockerProbe.dockerAvailable()) {
			String container = TestcontainersRedis.start();
			logger.info("Tests use a Redis container at {}", container);
			return container;
		}
		if (RedisServerProcess.isAvailable()) {
			RedisServerProcess server = RedisServerProcess.start();
			Runtime.getRuntime().addShutdownHook(new Thread(server::close, "redis-test-server-shutdown"));
			logger.info("Tests use a redis-server started at {}", server.url());
			return server.url();
		}
		throw new IllegalStateException("Integration tests need a real Redis and none is available: set " + URL_VARIABLE
				+ "=redis://host:port, start a Docker engine (Testcontainers), "
				+ "or install redis-server (apt-get install redis-server)");
	}

}
