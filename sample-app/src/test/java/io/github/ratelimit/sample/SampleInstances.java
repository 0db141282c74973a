package io.github.ratelimit.sample;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import io.github.ratelimit.test.redis.RedisTestServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Instances of the sample app on one real Redis (the test support's, never
 * 127.0.0.1:6379), closed together.
 */
final class SampleInstances implements AutoCloseable {

	private final String[] profiles;

	private final List<ConfigurableApplicationContext> contexts = new ArrayList<>();

	/**
	 * @param profiles the profiles every instance runs with; {@code redis} among them
	 */
	SampleInstances(String... profiles) {
		this.profiles = profiles;
	}

	/**
	 * Starts an instance once its rate-limit store answers.
	 * @param keyPrefix the store's key prefix: instances of one test share it
	 * @param arguments more command-line arguments, which win over the profiles' files
	 * @return the instance's port
	 */
	int start(String keyPrefix, String... arguments) {
		List<String> args = new ArrayList<>(List.of("--server.port=0",
				"--spring.data.redis.url=" + RedisTestServer.url(), "--ratelimit.storage.key-prefix=" + keyPrefix));
		args.addAll(List.of(arguments));
		// arguments, not default properties: they must win over application-redis.yml
		ConfigurableApplicationContext context = new SpringApplicationBuilder(SampleApplication.class)
			.profiles(this.profiles)
			.run(args.toArray(new String[0]));
		this.contexts.add(context);
		assertThat(context.getEnvironment().getProperty("spring.data.redis.url")).isEqualTo(RedisTestServer.url());
		int port = Integer.parseInt(context.getEnvironment().getProperty("local.server.port"));
		awaitStoreConnected(port);
		return port;
	}

	/**
	 * The store connects in the background; a decided request carries rate-limit headers.
	 */
	private static void awaitStoreConnected(int port) {
		for (int attempt = 0; attempt < 100; attempt++) {
			HttpResponse<String> response = Http.send("GET", "http://127.0.0.1:" + port + "/v1/status");
			if (response.statusCode() == 200 && response.headers().firstValue("RateLimit").isPresent()) {
				return;
			}
			try {
				Thread.sleep(100);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
		}
		throw new IllegalStateException("rate-limit store did not connect to " + RedisTestServer.url());
	}

	@Override
	public void close() {
		this.contexts.forEach(ConfigurableApplicationContext::close);
		this.contexts.clear();
	}

}
