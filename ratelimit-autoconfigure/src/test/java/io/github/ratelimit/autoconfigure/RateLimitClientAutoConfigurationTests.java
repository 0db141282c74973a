package io.github.ratelimit.autoconfigure;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.restclient.RestClientCustomizer;
import org.springframework.boot.restclient.RestTemplateBuilder;
import org.springframework.boot.restclient.RestTemplateCustomizer;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.RestTemplateAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.webclient.WebClientCustomizer;
import org.springframework.boot.webclient.autoconfigure.WebClientAutoConfiguration;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestTemplate;
import org.springframework.web.reactive.function.client.ExchangeFilterFunction;
import org.springframework.web.reactive.function.client.WebClient;

import io.github.ratelimit.client.ClientCall;
import io.github.ratelimit.client.ClientDecision;
import io.github.ratelimit.client.ClientEvents;
import io.github.ratelimit.client.ClientRetrySettings;
import io.github.ratelimit.client.HeaderLookup;
import io.github.ratelimit.client.LoggingClientEvents;
import io.github.ratelimit.client.MicrometerClientEvents;
import io.github.ratelimit.client.RateLimitClient;
import io.github.ratelimit.client.RateLimitClientHttpRequestInterceptor;
import io.github.ratelimit.client.RateLimitExchangeFilterFunction;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The calling side's beans: none unless {@code ratelimit.client.enabled}; once on, one
 * client whose interceptor and filter go first in every builder Boot hands out, its
 * settings bound from {@code ratelimit.client.*} and checked at startup, meters when
 * there is a registry.
 */
class RateLimitClientAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(
			AutoConfigurations.of(RateLimitClientAutoConfiguration.class, RestClientAutoConfiguration.class,
					RestTemplateAutoConfiguration.class, WebClientAutoConfiguration.class));

	@Test
	void isOffByDefault() {
		this.runner.run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context).doesNotHaveBean(RateLimitClient.class);
			assertThat(context).doesNotHaveBean(RestClientCustomizer.class);
			assertThat(context).doesNotHaveBean(WebClientCustomizer.class);
			assertThat(interceptors(context)).noneMatch(RateLimitClientHttpRequestInterceptor.class::isInstance);
			assertThat(filters(context)).noneMatch(RateLimitExchangeFilterFunction.class::isInstance);
		});
		this.runner.withPropertyValues("ratelimit.client.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(RateLimitClient.class));
	}

	@Test
	void putsTheInterceptorFirstInEveryRestClientBuilder() {
		this.runner.withPropertyValues("ratelimit.client.enabled=true")
			.withBean(RestClientCustomizer.class,
					() -> (builder) -> builder
						.requestInterceptor((request, body, execution) -> execution.execute(request, body)))
			.run((context) -> {
				assertThat(context).hasSingleBean(RateLimitClient.class);
				List<ClientHttpRequestInterceptor> interceptors = interceptors(context);
				assertThat(interceptors).hasSize(2);
				assertThat(interceptors.get(0)).isSameAs(context.getBean(RateLimitClientHttpRequestInterceptor.class));
			});
	}

	@Test
	void putsTheInterceptorFirstInEveryRestTemplate() {
		this.runner.withPropertyValues("ratelimit.client.enabled=true").run((context) -> {
			RestTemplateBuilder builder = context.getBean(RestTemplateBuilder.class)
				.additionalInterceptors((request, body, execution) -> execution.execute(request, body));
			List<ClientHttpRequestInterceptor> interceptors = builder.build().getInterceptors();
			assertThat(interceptors).hasSize(2);
			assertThat(interceptors.get(0)).isSameAs(context.getBean(RateLimitClientHttpRequestInterceptor.class));
		});
	}

	@Test
	void putsTheFilterFirstInEveryWebClientBuilder() {
		this.runner.withPropertyValues("ratelimit.client.enabled=true").run((context) -> {
			WebClient.Builder builder = context.getBean(WebClient.Builder.class)
				.filter((request, next) -> next.exchange(request));
			List<ExchangeFilterFunction> filters = new ArrayList<>();
			builder.filters(filters::addAll);
			assertThat(filters).hasSize(2);
			assertThat(filters.get(0)).isSameAs(context.getBean(RateLimitExchangeFilterFunction.class));
		});
	}

	@Test
	void addsTheInterceptorOnceToABuilderCustomizedTwice() {
		this.runner.withPropertyValues("ratelimit.client.enabled=true").run((context) -> {
			RestClient.Builder builder = context.getBean(RestClient.Builder.class);
			context.getBean(RestClientCustomizer.class).customize(builder);
			List<ClientHttpRequestInterceptor> interceptors = new ArrayList<>();
			builder.requestInterceptors(interceptors::addAll);
			assertThat(interceptors).filteredOn(RateLimitClientHttpRequestInterceptor.class::isInstance).hasSize(1);
			RestTemplateCustomizer customizer = context.getBean(RestTemplateCustomizer.class);
			RestTemplate restTemplate = context.getBean(RestTemplateBuilder.class).build();
			customizer.customize(restTemplate);
			assertThat(restTemplate.getInterceptors()).hasSize(1);
		});
	}

	@Test
	void bindsTheSettings() {
		this.runner
			.withPropertyValues("ratelimit.client.enabled=true", "ratelimit.client.max-attempts=2",
					"ratelimit.client.max-delay=10s", "ratelimit.client.max-total-wait=45s",
					"ratelimit.client.initial-backoff=250ms", "ratelimit.client.jitter=0",
					"ratelimit.client.pacing=false", "ratelimit.client.breaker-threshold=0",
					"ratelimit.client.breaker-open-for=1m", "ratelimit.client.warn-remaining-percent=25")
			.run((context) -> assertThat(context.getBean(RateLimitClient.class).settings())
				.isEqualTo(new ClientRetrySettings(2, Duration.ofSeconds(10), Duration.ofSeconds(45),
						Duration.ofMillis(250), Duration.ZERO, false, 0, Duration.ofMinutes(1), 25)));
	}

	@Test
	void usesTheDefaultsOfTheSettings() {
		this.runner.withPropertyValues("ratelimit.client.enabled=true")
			.run((context) -> assertThat(context.getBean(RateLimitClient.class).settings())
				.isEqualTo(ClientRetrySettings.DEFAULTS));
	}

	@Test
	void stopsTheStartOnAnInvalidSettingNamingIt() {
		assertStartFailure("ratelimit.client.max-attempts=0", "ratelimit.client.max-attempts", "0", "4");
		assertStartFailure("ratelimit.client.max-delay=0s", "ratelimit.client.max-delay", "0", "30s");
		assertStartFailure("ratelimit.client.jitter=-1s", "ratelimit.client.jitter", "-1", "1s");
		assertStartFailure("ratelimit.client.warn-remaining-percent=150", "ratelimit.client.warn-remaining-percent",
				"150", "10");
	}

	@Test
	void stopsTheStartWhenEnabledIsNeitherTrueNorFalse() {
		this.runner.withPropertyValues("ratelimit.client.enabled=ture").run((context) -> {
			FailureAnalysis analysis = analysis(context);
			assertThat(analysis.getDescription()).contains("ratelimit.client.enabled").contains("ture");
			assertThat(analysis.getAction()).contains("true");
		});
	}

	@Test
	void recordsMetersWhenThereIsARegistry() {
		this.runner.withPropertyValues("ratelimit.client.enabled=true")
			.run((context) -> assertThat(context).doesNotHaveBean(MicrometerClientEvents.class)
				.hasSingleBean(LoggingClientEvents.class));
		this.runner.withPropertyValues("ratelimit.client.enabled=true")
			.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
			.run((context) -> {
				assertThat(context).hasSingleBean(MicrometerClientEvents.class);
				refusedOnce(context.getBean(RateLimitClient.class));
				assertThat(context.getBean(MeterRegistry.class).get(MicrometerClientEvents.RETRIES).counter().count())
					.isOne();
			});
	}

	@Test
	void tellsTheApplicationsOwnEventsToo() {
		List<Integer> retried = new ArrayList<>();
		ClientEvents own = new ClientEvents() {

			@Override
			public void retried(String host, int status) {
				retried.add(status);
			}

		};
		this.runner.withPropertyValues("ratelimit.client.enabled=true")
			.withBean(ClientEvents.class, () -> own)
			.run((context) -> {
				refusedOnce(context.getBean(RateLimitClient.class));
				assertThat(retried).containsExactly(429);
			});
	}

	@Test
	void customizesOnlyTheBuildersOnTheClassPath() {
		this.runner.withPropertyValues("ratelimit.client.enabled=true")
			.withClassLoader(new FilteredClassLoader(WebClient.class))
			.run((context) -> {
				assertThat(context).hasSingleBean(RestClientCustomizer.class);
				assertThat(context).doesNotHaveBean(WebClientCustomizer.class);
			});
		this.runner.withPropertyValues("ratelimit.client.enabled=true")
			.withClassLoader(new FilteredClassLoader(RestClientCustomizer.class))
			.run((context) -> {
				assertThat(context).doesNotHaveBean(RestClientCustomizer.class);
				assertThat(context).hasSingleBean(RateLimitClientHttpRequestInterceptor.class);
				assertThat(context).hasSingleBean(WebClientCustomizer.class);
			});
	}

	@Test
	void backsOffForTheApplicationsOwnClient() {
		RateLimitClient own = new RateLimitClient(ClientRetrySettings.DEFAULTS.withMaxAttempts(1));
		this.runner.withPropertyValues("ratelimit.client.enabled=true")
			.withBean(RateLimitClient.class, () -> own)
			.run((context) -> assertThat(context.getBean(RateLimitClient.class)).isSameAs(own));
	}

	@Test
	void worksWithTheLimiterOffAndLetsTheLimiterBindTheClientsProperties() {
		ApplicationContextRunner both = this.runner
			.withConfiguration(AutoConfigurations.of(RateLimitAutoConfiguration.class));
		// the limiter's own properties still bind (with their converters) while it is off
		both.withPropertyValues("ratelimit.enabled=false", "ratelimit.client.enabled=true",
				"ratelimit.tiers.anonymous.ip.default=10/1m", "ratelimit.warn-at=80%")
			.run((context) -> assertThat(context).hasSingleBean(RateLimitClient.class));
		both.withPropertyValues("ratelimit.client.max-attempts=3", "ratelimit.tiers.anonymous.ip.default=10/1m")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context).doesNotHaveBean(RateLimitClient.class);
			});
	}

	/** A GET refused once, with a Retry-After: the client will retry it. */
	private static void refusedOnce(RateLimitClient client) {
		ClientCall call = client.start("GET", URI.create("http://api.example.com/orders"), false);
		call.beforeSend();
		assertThat(call.afterResponse(429, HeaderLookup.of(Map.of("Retry-After", List.of("1"))), () -> new byte[0]))
			.isInstanceOf(ClientDecision.Retry.class);
	}

	private void assertStartFailure(String setting, String property, String value, String example) {
		this.runner.withPropertyValues("ratelimit.client.enabled=true", setting).run((context) -> {
			FailureAnalysis analysis = analysis(context);
			assertThat(analysis.getDescription()).contains(property).contains(value);
			assertThat(analysis.getAction()).contains(example);
		});
	}

	private static FailureAnalysis analysis(AssertableApplicationContext context) {
		assertThat(context).hasFailed();
		FailureAnalysis analysis = new RateLimitConfigurationFailureAnalyzer().analyze(context.getStartupFailure());
		assertThat(analysis).as("%s", context.getStartupFailure()).isNotNull();
		return analysis;
	}

	private static List<ClientHttpRequestInterceptor> interceptors(AssertableApplicationContext context) {
		List<ClientHttpRequestInterceptor> interceptors = new ArrayList<>();
		context.getBean(RestClient.Builder.class).requestInterceptors(interceptors::addAll);
		return interceptors;
	}

	private static List<ExchangeFilterFunction> filters(AssertableApplicationContext context) {
		List<ExchangeFilterFunction> filters = new ArrayList<>();
		context.getBean(WebClient.Builder.class).filters(filters::addAll);
		return filters;
	}

}
