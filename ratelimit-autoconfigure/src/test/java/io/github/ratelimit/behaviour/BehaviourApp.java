package io.github.ratelimit.behaviour;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import io.github.ratelimit.core.RateLimiter;
import io.github.ratelimit.storage.redis.RedisRateLimitStore;

/**
 * A behavioural app, started on a free port with the {@code behaviour} profile
 * ({@code application-behaviour.yml}). Reactive apps start under BlockHound
 * ({@link BlockingCallDetector}).
 */
final class BehaviourApp implements AutoCloseable {

	private final ConfigurableApplicationContext context;

	private final int port;

	private BehaviourApp(ConfigurableApplicationContext context) {
		this.context = context;
		this.port = ((WebServerApplicationContext) context).getWebServer().getPort();
	}

	/**
	 * Starts an app.
	 * @param stack the web stack
	 * @param properties properties that win over the profile's
	 * @param extraSources more configuration classes, such as a store that is down
	 * @return the running app
	 */
	static BehaviourApp start(Stack stack, Map<String, String> properties, Class<?>... extraSources) {
		return start(new SpringApplicationBuilder(stack.application()).sources(extraSources).profiles("behaviour"),
				stack, properties);
	}

	/**
	 * Starts an app of a test's own, without the {@code behaviour} profile.
	 * @param application its configuration, serving either stack
	 * @param stack the web stack
	 * @param properties its properties
	 * @return the running app
	 */
	static BehaviourApp startOwn(Class<?> application, Stack stack, Map<String, String> properties) {
		return start(new SpringApplicationBuilder(application), stack, properties);
	}

	private static BehaviourApp start(SpringApplicationBuilder builder, Stack stack, Map<String, String> properties) {
		if (stack == Stack.WEBFLUX) {
			BlockingCallDetector.install();
		}
		List<String> args = new ArrayList<>();
		args.add("--server.port=0");
		properties.forEach((name, value) -> args.add("--" + name + "=" + value));
		return new BehaviourApp(builder.web(stack.type()).run(args.toArray(String[]::new)));
	}

	/**
	 * Waits until a Redis store has connected: it connects in the background so that the
	 * app starts while Redis is down, and until then every request gets the failure mode.
	 * @return this app
	 */
	BehaviourApp awaitStoreConnected() {
		this.context.getBeanProvider(RedisRateLimitStore.class).ifAvailable((store) -> {
			long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
			while (!store.isConnected()) {
				if (System.nanoTime() > deadline) {
					throw new IllegalStateException("The rate-limit store did not connect to Redis within 30 s");
				}
				LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
			}
		});
		return this;
	}

	/**
	 * How many decisions of this app got the storage failure mode instead of the store's
	 * answer: a test that counts exactly asserts none did.
	 */
	long failureModeDecisions() {
		return this.context.getBean(RateLimiter.class).storeFailures().failureModeLog().total();
	}

	int port() {
		return this.port;
	}

	ConfigurableApplicationContext context() {
		return this.context;
	}

	@Override
	public void close() {
		this.context.close();
	}

}
