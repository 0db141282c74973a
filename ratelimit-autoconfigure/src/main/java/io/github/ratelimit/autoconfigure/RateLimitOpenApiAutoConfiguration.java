package io.github.ratelimit.autoconfigure;

import org.springdoc.core.customizers.GlobalOpenApiCustomizer;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

import io.github.ratelimit.control.RuntimeControl;
import io.github.ratelimit.http.RateLimitHeaders;
import io.github.ratelimit.http.RejectionBodyWriter;
import io.github.ratelimit.openapi.RateLimitOpenApiCustomizer;
import io.github.ratelimit.web.EndpointClassifier;

/**
 * The limits of each operation in the application's OpenAPI document, when springdoc is
 * present: a customizer of every document springdoc builds, reading the classifier and
 * policy table the filter uses.
 */
@AutoConfiguration(after = RateLimitAutoConfiguration.class)
@ConditionalOnClass(GlobalOpenApiCustomizer.class)
@ConditionalOnBean({ EndpointClassifier.class, RuntimeControl.class, RateLimitHeaders.class,
		RejectionBodyWriter.class })
@EnableConfigurationProperties(RateLimitProperties.class)
public final class RateLimitOpenApiAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	RateLimitOpenApiCustomizer rateLimitOpenApiCustomizer(EndpointClassifier classifier, RuntimeControl runtimeControl,
			RateLimitHeaders headers, RejectionBodyWriter bodyWriter, RateLimitProperties properties) {
		return new RateLimitOpenApiCustomizer(classifier, runtimeControl, headers, bodyWriter,
				properties.getStorage().getFailureMode());
	}

}
