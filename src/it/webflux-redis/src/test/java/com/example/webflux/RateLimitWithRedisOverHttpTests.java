package com.example.webflux;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import io.github.ratelimit.storage.RateLimitStore;
import io.github.ratelimit.storage.redis.script.RedisScriptRateLimitStore;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two instances of the app on one Redis share one budget: what only a shared store can do.
 */
class RateLimitWithRedisOverHttpTests {

	private static final String KEY_PREFIX = "webflux-redis-it:" + UUID.randomUUID() + ":";

	private static final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

	private static RedisServer redis;

	private static ConfigurableApplicationContext first;

	private static ConfigurableApplicationContext second;

	@BeforeAll
	static void start() throws Exception {
		redis = RedisServer.start();
		first = startApp();
		second = startApp();
	}

	@AfterAll
	static void stop() throws Exception {
		for (ConfigurableApplicationContext app : new ConfigurableApplicationContext[] { second, first }) {
			if (app != null) {
				app.close();
			}
		}
		if (redis != null) {
			redis.close();
		}
	}

	@Test
	void twoInstancesShareTheLimitThroughRedis() throws Exception {
		String caller = "203.0.113.10";
		assertThat(get(first, "/api/hello", caller).statusCode()).isEqualTo(200);
		assertThat(get(first, "/api/hello", caller).statusCode()).isEqualTo(200);
		HttpResponse<String> last = get(second, "/api/hello", caller);
		assertThat(last.statusCode()).isEqualTo(200);
		assertThat(last.headers().firstValue("X-RateLimit-Remaining")).hasValue("0");
		for (ConfigurableApplicationContext app : List.of(first, second)) {
			HttpResponse<String> rejected = get(app, "/api/hello", caller);
			assertThat(rejected.statusCode()).isEqualTo(429);
			assertThat(rejected.headers().firstValue("Content-Type")).hasValueSatisfying(
					(type) -> assertThat(type).startsWith("application/problem+json"));
			assertThat(rejected.body()).contains("\"scope\":\"ip\"").contains("203.0.113.10");
		}
		try (RedisClient redisClient = RedisClient.create(redis.url());
				StatefulRedisConnection<String, String> connection = redisClient.connect()) {
			assertThat(connection.sync().keys(KEY_PREFIX + "*")).isNotEmpty();
		}
	}

	@Test
	void routeAttributeSetsTheCostOfAFunctionalRoute() throws Exception {
		String caller = "203.0.113.20";
		HttpResponse<String> report = get(first, "/api/report", caller);
		assertThat(report.statusCode()).isEqualTo(200);
		assertThat(report.headers().firstValue("X-RateLimit-Remaining")).hasValue("0");
		assertThat(get(second, "/api/hello", caller).statusCode()).isEqualTo(429);
	}

	private static ConfigurableApplicationContext startApp() throws InterruptedException {
		ConfigurableApplicationContext app = new SpringApplicationBuilder(WebFluxApplication.class).run("--server.port=0",
				"--spring.data.redis.url=" + redis.url(), "--ratelimit.storage.key-prefix=" + KEY_PREFIX);
		RateLimitStore store = app.getBean(RateLimitStore.class);
		assertThat(store).isInstanceOf(RedisScriptRateLimitStore.class);
		// the store connects in the background so that the app starts while Redis is down
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
		while (!((RedisScriptRateLimitStore) store).isConnected() && System.nanoTime() < deadline) {
			Thread.sleep(10);
		}
		return app;
	}

	private static HttpResponse<String> get(ConfigurableApplicationContext app, String path, String forwardedFor)
			throws Exception {
		int port = ((WebServerApplicationContext) app).getWebServer().getPort();
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
			.header("X-Forwarded-For", forwardedFor)
			.timeout(Duration.ofSeconds(10))
			.build();
		try {
			return client.send(request, HttpResponse.BodyHandlers.ofString());
		}
		catch (HttpTimeoutException ex) {
			// both apps run in this JVM: what their threads were doing says which side held the answer
			StringBuilder dump = new StringBuilder("Request to port " + port + " timed out; threads:\n");
			Thread.getAllStackTraces().forEach((thread, stack) -> {
				dump.append('"').append(thread.getName()).append("\" ").append(thread.getState()).append('\n');
				for (StackTraceElement frame : stack) {
					dump.append("    at ").append(frame).append('\n');
				}
			});
			System.err.println(dump);
			throw ex;
		}
	}

}
