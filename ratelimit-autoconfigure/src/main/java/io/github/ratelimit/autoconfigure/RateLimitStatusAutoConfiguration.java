package io.github.ratelimit.autoconfigure;

import java.time.Clock;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingFilterBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import reactor.core.scheduler.Schedulers;

import io.github.ratelimit.control.RuntimeControl;
import io.github.ratelimit.core.BucketReader;
import io.github.ratelimit.core.RequestKeys;
import io.github.ratelimit.core.status.CallerStatus;
import io.github.ratelimit.http.RateLimitHeaders;
import io.github.ratelimit.http.RejectionBodyWriter;
import io.github.ratelimit.identity.Identifier;
import io.github.ratelimit.storage.RateLimitStore;
import io.github.ratelimit.storage.StoreKeys;
import io.github.ratelimit.web.ExposedHeaders;
import io.github.ratelimit.web.reactive.ReactiveCors;
import io.github.ratelimit.web.reactive.ReactiveRateLimitStatusFilter;
import io.github.ratelimit.web.servlet.RateLimitStatusFilter;
import io.github.ratelimit.web.servlet.ServletCors;

/**
 * The status endpoint callers ask for their own limits ({@code ratelimit.status.enabled};
 * off by default), at {@code ratelimit.status.path}: a filter of the application's stack
 * ordered just before the rate limiter's ({@code ratelimit.filter.order} - 1), so after
 * Spring Security by default, answering from the caller's standing
 * ({@link CallerStatus}). The path is excluded from every limit by
 * {@link RateLimitAutoConfiguration}'s classifier.
 */
@AutoConfiguration(after = RateLimitAutoConfiguration.class)
@ConditionalOnBooleanProperty("ratelimit.status.enabled")
@ConditionalOnBean({ Identifier.class, RuntimeControl.class, RateLimitStore.class, StoreKeys.class })
public final class RateLimitStatusAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	CallerStatus rateLimitCallerStatus(RateLimitProperties properties, Identifier callerIdentifier,
			RuntimeControl runtimeControl, RateLimitStore store, StoreKeys storeKeys, RequestKeys requestKeys) {
		StatusMapper.checkStoreReads(store);
		return new CallerStatus(callerIdentifier, runtimeControl, store, new BucketReader(store, storeKeys),
				StatusMapper.groupCosts(properties), Clock.systemUTC(), requestKeys);
	}

	/** Just before the rate limiter's filter, which the status request never reaches. */
	private static int order(RateLimitProperties properties) {
		return properties.getFilter().getOrder() - 1;
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
	static class ServletConfiguration {

		@Bean
		@ConditionalOnMissingFilterBean(RateLimitStatusFilter.class)
		FilterRegistrationBean<RateLimitStatusFilter> rateLimitStatusFilter(RateLimitProperties properties,
				CallerStatus callerStatus, RateLimitHeaders headers, RejectionBodyWriter bodyWriter,
				ObjectProvider<ServletCors> cors) {
			RateLimitStatusFilter filter = new RateLimitStatusFilter(callerStatus,
					StatusMapper.pattern(properties.getStatus()), headers, bodyWriter,
					cors.getIfAvailable(() -> ServletCors.exposingOnly(ExposedHeaders.of(headers))));
			FilterRegistrationBean<RateLimitStatusFilter> registration = new FilterRegistrationBean<>(filter);
			registration.setName("rateLimitStatusFilter");
			registration.setOrder(order(properties));
			return registration;
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
	static class ReactiveConfiguration {

		@Bean
		@ConditionalOnMissingBean
		ReactiveRateLimitStatusFilter reactiveRateLimitStatusFilter(RateLimitProperties properties,
				CallerStatus callerStatus, RateLimitHeaders headers, RejectionBodyWriter bodyWriter,
				ObjectProvider<ReactiveCors> cors) {
			return new ReactiveRateLimitStatusFilter(callerStatus, StatusMapper.pattern(properties.getStatus()),
					headers, bodyWriter, order(properties), Schedulers.boundedElastic(),
					cors.getIfAvailable(() -> ReactiveCors.exposingOnly(ExposedHeaders.of(headers))));
		}

	}

}
