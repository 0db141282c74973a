package io.github.ratelimit.autoconfigure;

import org.springframework.boot.context.properties.ConfigurationPropertiesBinding;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The converters that bind {@code ratelimit.*} values to their types once, so a bad value
 * is reported by Boot's binder with the property and where it was set
 * ({@link RateLimitBindFailureAnalyzer}). Static: they exist before any configuration
 * properties are bound.
 */
@Configuration(proxyBeanMethods = false)
final class RateLimitConverters {

	@Bean
	@ConfigurationPropertiesBinding
	static LimitConverter rateLimitLimitConverter() {
		return new LimitConverter();
	}

	@Bean
	@ConfigurationPropertiesBinding
	static WarnAtConverter rateLimitWarnAtConverter() {
		return new WarnAtConverter();
	}

	@Bean
	@ConfigurationPropertiesBinding
	static CidrRangeConverter rateLimitCidrRangeConverter() {
		return new CidrRangeConverter();
	}

	@Bean
	@ConfigurationPropertiesBinding
	static OptionalLimitConverter rateLimitOptionalLimitConverter() {
		return new OptionalLimitConverter();
	}

	@Bean
	@ConfigurationPropertiesBinding
	static CountedResponseConverter rateLimitCountedResponseConverter() {
		return new CountedResponseConverter();
	}

	@Bean
	@ConfigurationPropertiesBinding
	static AllowRuleConverter rateLimitAllowRuleConverter() {
		return new AllowRuleConverter();
	}

	@Bean
	@ConfigurationPropertiesBinding
	static SubjectConverter rateLimitSubjectConverter() {
		return new SubjectConverter();
	}

	@Bean
	@ConfigurationPropertiesBinding
	static KeySha256Converter rateLimitKeySha256Converter() {
		return new KeySha256Converter();
	}

	@Bean
	@ConfigurationPropertiesBinding
	static PriorityConverter rateLimitPriorityConverter() {
		return new PriorityConverter();
	}

}
