package io.github.ratelimit.client;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.restclient.RestTemplateBuilder;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.RestClientObservationAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.RestTemplateAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.webclient.autoconfigure.WebClientAutoConfiguration;
import org.springframework.boot.webclient.autoconfigure.WebClientObservationAutoConfiguration;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.client.HttpClientErrorException;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.support.RestClientAdapter;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.service.annotation.GetExchange;
import org.springframework.web.service.invoker.HttpServiceProxyFactory;

import io.github.ratelimit.autoconfigure.RateLimitClientAutoConfiguration;
import io.github.ratelimit.client.ScriptedServer.Reply;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The builders Boot hands out, with {@code ratelimit.client.enabled}: a refused call is
 * sent again through each of them, also through an HTTP interface client, and a 404 still
 * reaches the caller as Spring's own exception after one request. (The waits asked for
 * are zero: these clients sleep for real.)
 */
class RateLimitClientAutoConfiguredCallTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(RateLimitClientAutoConfiguration.class, RestClientAutoConfiguration.class,
						RestTemplateAutoConfiguration.class, WebClientAutoConfiguration.class))
		.withPropertyValues("ratelimit.client.enabled=true", "ratelimit.client.jitter=0");

	private ScriptedServer server;

	@BeforeEach
	void startServer() throws IOException {
		this.server = new ScriptedServer();
	}

	@AfterEach
	void stopServer() {
		this.server.close();
	}

	@Test
	void retriesThroughEveryBuilderBootHandsOut() {
		Reply refusal = Reply.status(429).header("Retry-After", "0");
		Reply ok = Reply.status(200).body("text/plain", "ok");
		this.server.then(refusal).then(ok).then(refusal).then(ok).then(refusal).then(ok).then(refusal).then(ok);
		this.runner.run((context) -> {
			RestClient rest = context.getBean(RestClient.Builder.class).build();
			assertThat(rest.get().uri(this.server.uri("/a")).retrieve().body(String.class)).isEqualTo("ok");
			assertThat(context.getBean(RestTemplateBuilder.class)
				.build()
				.getForObject(this.server.uri("/b"), String.class)).isEqualTo("ok");
			assertThat(context.getBean(WebClient.Builder.class)
				.build()
				.get()
				.uri(this.server.uri("/c"))
				.retrieve()
				.bodyToMono(String.class)
				.block(Duration.ofSeconds(10))).isEqualTo("ok");
			Orders orders = HttpServiceProxyFactory
				.builderFor(RestClientAdapter
					.create(context.getBean(RestClient.Builder.class).baseUrl(this.server.uri("/").toString()).build()))
				.build()
				.createClient(Orders.class);
			assertThat(orders.order("d")).isEqualTo("ok");
		});
		assertThat(this.server.received()).extracting(ScriptedServer.Received::path)
			.containsExactly("/a", "/a", "/b", "/b", "/c", "/c", "/orders/d", "/orders/d");
	}

	@Test
	void handsA404ToTheCallerAsSpringsExceptionAfterOneRequest() {
		this.server.then(Reply.status(404).header("Retry-After", "0"));
		this.runner.run((context) -> {
			RestClient rest = context.getBean(RestClient.Builder.class).build();
			assertThatExceptionOfType(HttpClientErrorException.NotFound.class)
				.isThrownBy(() -> rest.get().uri(this.server.uri("/a")).retrieve().body(String.class));
		});
		assertThat(this.server.received()).hasSize(1);
	}

	@Test
	void isOneObservationPerCallWithTheStatusTheCallerGot() {
		Reply refusal = Reply.status(429).header("Retry-After", "0");
		Reply ok = Reply.status(200).body("text/plain", "ok");
		this.server.then(refusal).then(ok).then(refusal).then(ok);
		List<String> observed = new CopyOnWriteArrayList<>();
		ObservationRegistry observations = ObservationRegistry.create();
		observations.observationConfig().observationHandler(new ObservationHandler<>() {

			@Override
			public void onStop(Observation.Context context) {
				observed.add(context.getName() + " " + context.getLowCardinalityKeyValue("status").getValue());
			}

			@Override
			public boolean supportsContext(Observation.Context context) {
				return true;
			}

		});
		this.runner.withBean(ObservationRegistry.class, () -> observations)
			.withConfiguration(AutoConfigurations.of(RestClientObservationAutoConfiguration.class,
					WebClientObservationAutoConfiguration.class))
			.run((context) -> {
				context.getBean(RestClient.Builder.class)
					.build()
					.get()
					.uri(this.server.uri("/a"))
					.retrieve()
					.toBodilessEntity();
				context.getBean(WebClient.Builder.class)
					.build()
					.get()
					.uri(this.server.uri("/b"))
					.retrieve()
					.toBodilessEntity()
					.block(Duration.ofSeconds(10));
			});
		assertThat(this.server.received()).hasSize(4);
		assertThat(observed).containsExactly("http.client.requests 200", "http.client.requests 200");
	}

	interface Orders {

		@GetExchange("/orders/{id}")
		String order(@PathVariable String id);

	}

}
