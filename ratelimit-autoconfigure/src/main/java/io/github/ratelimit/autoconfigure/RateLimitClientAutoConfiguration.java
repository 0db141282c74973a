package io.github.ratelimit.autoconfigure;

import java.time.Clock;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.restclient.RestClientCustomizer;
import org.springframework.boot.restclient.RestTemplateCustomizer;
import org.springframework.boot.webclient.WebClientCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.web.reactive.function.client.WebClient;

import io.github.ratelimit.client.ClientEvents;
import io.github.ratelimit.client.ClientRetrySettings;
import io.github.ratelimit.client.LoggingClientEvents;
import io.github.ratelimit.client.MicrometerClientEvents;
import io.github.ratelimit.client.RateLimitClient;
import io.github.ratelimit.client.RateLimitClientHttpRequestInterceptor;
import io.github.ratelimit.client.RateLimitExchangeFilterFunction;

/**
 * The calling side, opt-in ({@code ratelimit.client.enabled=true}): one
 * {@link RateLimitClient} for the application, and customizers that put it in front of
 * every {@code RestClient.Builder}, {@code RestTemplateBuilder} and
 * {@code WebClient.Builder} Boot hands out (so also in the HTTP interface clients built
 * on them), each when its builder is on the class path.
 * <p>
 * The interceptor and the filter go first in their builder's list, whatever order the
 * customizers run in: the interceptors and filters after them (authentication, signing,
 * logging) run again for each attempt. Boot's HTTP client observation wraps them all: one
 * observation per call, with the status the caller got; the attempts show in the
 * {@code ratelimit.client.*} meters.
 */
@AutoConfiguration(afterName = { "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
		"org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
		"org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration" })
@Conditional(OnRateLimitClientEnabledCondition.class)
@EnableConfigurationProperties(RateLimitProperties.class)
@Import(RateLimitConverters.class)
public final class RateLimitClientAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	RateLimitClient rateLimitClient(RateLimitProperties properties, ObjectProvider<ClientEvents> events) {
		// the WARN hint, the meters when there is a registry, and the application's own
		ClientEvents reported = ClientEvents.of(events.orderedStream().toArray(ClientEvents[]::new));
		return new RateLimitClient(settings(properties.getClient()), Clock.systemUTC(), ThreadLocalRandom.current(),
				reported);
	}

	/** The WARN hint when few requests remain, rate-limited per host. */
	@Bean
	LoggingClientEvents rateLimitClientLogging() {
		return new LoggingClientEvents();
	}

	static ClientRetrySettings settings(RateLimitClientProperties client) {
		return new ClientRetrySettings(client.getMaxAttempts(), client.getMaxDelay(), client.getMaxTotalWait(),
				client.getInitialBackoff(), client.getJitter(), client.isPacing(), client.getBreakerThreshold(),
				client.getBreakerOpenFor(), client.getWarnRemainingPercent());
	}

	// first, and once: a builder customized twice (or also by hand) still waits once
	private static <T> void addFirst(List<? super T> list, T element) {
		list.removeIf(element.getClass()::isInstance);
		list.add(0, element);
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(MeterRegistry.class)
	@ConditionalOnBean(MeterRegistry.class)
	static class ClientMetrics {

		@Bean
		MicrometerClientEvents rateLimitClientMetrics(MeterRegistry registry) {
			return new MicrometerClientEvents(registry);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(ClientHttpRequestInterceptor.class)
	static class BlockingClients {

		@Bean
		@ConditionalOnMissingBean
		RateLimitClientHttpRequestInterceptor rateLimitClientHttpRequestInterceptor(RateLimitClient client) {
			return new RateLimitClientHttpRequestInterceptor(client);
		}

		@Configuration(proxyBeanMethods = false)
		@ConditionalOnClass(RestClientCustomizer.class)
		static class Customizers {

			@Bean
			@Order(Ordered.LOWEST_PRECEDENCE)
			RestClientCustomizer rateLimitRestClientCustomizer(RateLimitClientHttpRequestInterceptor interceptor) {
				return (builder) -> builder.requestInterceptors((interceptors) -> addFirst(interceptors, interceptor));
			}

			@Bean
			@Order(Ordered.LOWEST_PRECEDENCE)
			RestTemplateCustomizer rateLimitRestTemplateCustomizer(RateLimitClientHttpRequestInterceptor interceptor) {
				return (restTemplate) -> addFirst(restTemplate.getInterceptors(), interceptor);
			}

		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass({ WebClient.class, WebClientCustomizer.class })
	static class ReactiveClients {

		@Bean
		@ConditionalOnMissingBean
		RateLimitExchangeFilterFunction rateLimitExchangeFilterFunction(RateLimitClient client) {
			return new RateLimitExchangeFilterFunction(client);
		}

		@Bean
		@Order(Ordered.LOWEST_PRECEDENCE)
		WebClientCustomizer rateLimitWebClientCustomizer(RateLimitExchangeFilterFunction filter) {
			return (builder) -> builder.filters((filters) -> addFirst(filters, filter));
		}

	}

}
