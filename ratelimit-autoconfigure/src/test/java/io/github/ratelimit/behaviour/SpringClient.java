package io.github.ratelimit.behaviour;

import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import org.jspecify.annotations.Nullable;
import org.springframework.context.ApplicationContext;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.http.client.ReactorResourceFactory;
import org.springframework.http.client.reactive.ReactorClientHttpConnector;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.support.RestClientAdapter;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.reactive.function.client.support.WebClientAdapter;
import org.springframework.web.service.invoker.HttpServiceProxyFactory;
import reactor.netty.resources.ConnectionProvider;
import reactor.netty.resources.LoopResources;

import io.github.ratelimit.client.RateLimitClient;
import io.github.ratelimit.client.RateLimitClientHttpRequestInterceptor;
import io.github.ratelimit.client.RateLimitExchangeFilterFunction;

/**
 * The Spring HTTP clients the client-side suite calls through, each built by hand as a
 * user builds it without auto-configuration, with the client side of the starter on.
 */
enum SpringClient {

	/** {@code RestClient} with {@link RateLimitClientHttpRequestInterceptor}. */
	REST_CLIENT {

		@Override
		Caller caller(String baseUrl, RateLimitClient client, String address) {
			RestClient rest = RestClient.builder()
				.requestFactory(new JdkClientHttpRequestFactory(jdkClient))
				.baseUrl(baseUrl)
				.defaultHeader("X-Forwarded-For", address)
				.requestInterceptor(new RateLimitClientHttpRequestInterceptor(client))
				.build();
			return (method, path, json, headers) -> {
				RestClient.RequestBodySpec spec = rest.method(HttpMethod.valueOf(method))
					.uri(path)
					.headers((target) -> add(target, headers));
				if (json != null) {
					spec.contentType(MediaType.APPLICATION_JSON).body(json);
				}
				return spec.exchange((request, response) -> new Answer(response.getStatusCode().value(),
						new String(response.getBody().readAllBytes(), StandardCharsets.UTF_8)));
			};
		}

		@Override
		<T> T httpInterface(ApplicationContext context, String baseUrl, String address, Class<T> type) {
			RestClient rest = context.getBean(RestClient.Builder.class)
				.baseUrl(baseUrl)
				.defaultHeader("X-Forwarded-For", address)
				.build();
			return HttpServiceProxyFactory.builderFor(RestClientAdapter.create(rest)).build().createClient(type);
		}

	},

	/**
	 * {@code WebClient} on Reactor Netty with {@link RateLimitExchangeFilterFunction}.
	 */
	WEB_CLIENT {

		@Override
		Caller caller(String baseUrl, RateLimitClient client, String address) {
			WebClient web = WebClient.builder()
				.clientConnector(new ReactorClientHttpConnector(nettyResources,
						(netty) -> netty.responseTimeout(Duration.ofSeconds(30))))
				.baseUrl(baseUrl)
				.defaultHeader("X-Forwarded-For", address)
				.filter(new RateLimitExchangeFilterFunction(client))
				.build();
			return (method, path, json, headers) -> {
				WebClient.RequestBodySpec spec = web.method(HttpMethod.valueOf(method))
					.uri(path)
					.headers((target) -> add(target, headers));
				if (json != null) {
					spec.contentType(MediaType.APPLICATION_JSON).bodyValue(json);
				}
				return spec
					.exchangeToMono((response) -> response.bodyToMono(String.class)
						.defaultIfEmpty("")
						.map((body) -> new Answer(response.statusCode().value(), body)))
					.block(Duration.ofSeconds(60));
			};
		}

		@Override
		<T> T httpInterface(ApplicationContext context, String baseUrl, String address, Class<T> type) {
			WebClient web = context.getBean(WebClient.Builder.class)
				.baseUrl(baseUrl)
				.defaultHeader("X-Forwarded-For", address)
				.build();
			return HttpServiceProxyFactory.builderFor(WebClientAdapter.create(web)).build().createClient(type);
		}

	};

	private static final HttpClient jdkClient = HttpClient.newBuilder()
		.version(HttpClient.Version.HTTP_1_1)
		.connectTimeout(Duration.ofSeconds(5))
		.build();

	/**
	 * Event loops of the tests' own, daemon threads: an app that closes disposes Reactor
	 * Netty's global ones.
	 */
	private static final ReactorResourceFactory nettyResources = nettyResources();

	/**
	 * Builds a client of this kind.
	 * @param baseUrl the app's base URL
	 * @param client the starter's client side, shared by every call of this client
	 * @param address the {@code X-Forwarded-For} of every call: whom the app limits
	 * @return the caller
	 */
	abstract Caller caller(String baseUrl, RateLimitClient client, String address);

	/**
	 * Creates an HTTP interface client ({@code @HttpExchange}) on a builder of this kind
	 * that Spring Boot's auto-configuration hands out, with nothing of the starter's
	 * added by hand.
	 * @param <T> the interface
	 * @param context a context with the client side auto-configured
	 * @param baseUrl the app's base URL
	 * @param address the {@code X-Forwarded-For} of every call
	 * @param type the interface
	 * @return the client
	 */
	abstract <T> T httpInterface(ApplicationContext context, String baseUrl, String address, Class<T> type);

	private static ReactorResourceFactory nettyResources() {
		ReactorResourceFactory resources = new ReactorResourceFactory();
		resources.setUseGlobalResources(false);
		resources.setConnectionProvider(ConnectionProvider.create("client-suite", 16));
		resources.setLoopResources(LoopResources.create("client-suite", 1, true));
		resources.start();
		return resources;
	}

	private static void add(HttpHeaders target, String... headers) {
		for (int i = 0; i < headers.length; i += 2) {
			target.add(headers[i], headers[i + 1]);
		}
	}

	/** One call through a Spring HTTP client, answering any status. */
	@FunctionalInterface
	interface Caller {

		/**
		 * Sends one logical call (the client side may send it several times).
		 * @param method the method
		 * @param path the path
		 * @param json a JSON body, or {@code null} for none
		 * @param headers header names and values, alternating
		 * @return what the caller finally got
		 */
		Answer sendJson(String method, String path, @Nullable String json, String... headers);

		/**
		 * Sends one logical call without a body.
		 * @param method the method
		 * @param path the path
		 * @param headers header names and values, alternating
		 * @return what the caller finally got
		 */
		default Answer send(String method, String path, String... headers) {
			return sendJson(method, path, null, headers);
		}

	}

	/**
	 * What a caller finally got.
	 *
	 * @param status the status
	 * @param body the body
	 */
	record Answer(int status, String body) {

	}

}
