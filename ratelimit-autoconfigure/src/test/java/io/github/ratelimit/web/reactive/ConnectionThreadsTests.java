package io.github.ratelimit.web.reactive;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;
import org.springframework.http.server.reactive.ReactorHttpHandlerAdapter;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

import static org.assertj.core.api.Assertions.assertThat;

class ConnectionThreadsTests {

	private final Scheduler fallback = Schedulers.newSingle("fallback");

	private final ConnectionThreads threads = new ConnectionThreads(this.fallback);

	@Test
	void aRequestOfAnotherServerGoesOnOnTheFallback() {
		MockServerHttpRequest mock = MockServerHttpRequest.get("/").build();
		assertThat(this.threads.of(mock)).isSameAs(this.fallback);
		assertThat(this.threads.of(new ServerHttpRequestDecorator(mock))).isSameAs(this.fallback);
		this.fallback.dispose();
	}

	@Test
	void aRequestOfReactorNettyGoesOnOnTheEventLoopThatServesItsConnection() throws Exception {
		// per request: the thread the server called the handler on, the one work
		// scheduled on the request's scheduler ran on, and that scheduler
		List<String> served = new CopyOnWriteArrayList<>();
		List<String> resumed = new CopyOnWriteArrayList<>();
		List<Scheduler> schedulers = new CopyOnWriteArrayList<>();
		ReactorHttpHandlerAdapter adapter = new ReactorHttpHandlerAdapter((request, response) -> {
			served.add(Thread.currentThread().getName());
			// seen through a decorator, as behind a filter that wraps the request
			Scheduler scheduler = this.threads.of(new ServerHttpRequestDecorator(request));
			schedulers.add(scheduler);
			// from another thread, as a Redis reply comes, back to the connection's
			return Mono.delay(Duration.ofMillis(1), this.fallback)
				.publishOn(scheduler)
				.doOnNext((ignored) -> resumed.add(Thread.currentThread().getName()))
				.then(response.setComplete());
		});
		DisposableServer server = HttpServer.create().host("127.0.0.1").port(0).handle(adapter).bindNow();
		try {
			HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
			for (int i = 0; i < 6; i++) {
				HttpResponse<Void> response = client
					.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/"))
						.timeout(Duration.ofSeconds(10))
						.build(), HttpResponse.BodyHandlers.discarding());
				assertThat(response.statusCode()).isEqualTo(200);
			}
		}
		finally {
			server.disposeNow();
			this.fallback.dispose();
		}
		assertThat(resumed).hasSize(6).isEqualTo(served).allSatisfy((name) -> assertThat(name).contains("-http-"));
		// one scheduler per event loop, not one per request: the requests an event loop
		// served (six on a few loops: some share one) share its scheduler
		Map<String, Set<Scheduler>> byLoop = new HashMap<>();
		for (int i = 0; i < served.size(); i++) {
			byLoop.computeIfAbsent(served.get(i), (loop) -> Collections.newSetFromMap(new IdentityHashMap<>()))
				.add(schedulers.get(i));
		}
		assertThat(byLoop).hasSizeLessThan(6).allSatisfy((loop, used) -> assertThat(used).hasSize(1));
		assertThat(schedulers).doesNotContain(this.fallback);
	}

}
