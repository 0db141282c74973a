package io.github.ratelimit.autoconfigure;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.util.ClassUtils;

import io.github.ratelimit.geo.CountryLookup;
import io.github.ratelimit.geo.CountryRules;
import io.github.ratelimit.geo.maxmind.MaxMindCountryLookup;

/**
 * Country rules at the gate ({@code ratelimit.geo}): a {@link CountryRules} screen over
 * the country database, read with MaxMind's reader when it is on the class path and
 * {@code ratelimit.geo.database} is set, or over a {@link CountryLookup} bean of the
 * user's. Rules without a database stop the start.
 */
@AutoConfiguration
@Conditional(OnRateLimitEnabledCondition.class)
@EnableConfigurationProperties(RateLimitProperties.class)
public final class RateLimitGeoAutoConfiguration {

	private static final String READER = "com.maxmind.db.Reader";

	@Bean
	@ConditionalOnBean(CountryLookup.class)
	@ConditionalOnMissingBean
	CountryRules rateLimitCountryRules(RateLimitProperties properties, CountryLookup countryLookup) {
		return GeoMapper.rules(properties.getGeo(), countryLookup);
	}

	@Bean
	SmartInitializingSingleton rateLimitCountryRulesCheck(RateLimitProperties properties,
			ObjectProvider<CountryLookup> countryLookup, ApplicationContext context) {
		return () -> GeoMapper.checkDatabase(properties.getGeo(), countryLookup.getIfAvailable() != null,
				ClassUtils.isPresent(READER, context.getClassLoader()));
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = READER)
	@ConditionalOnProperty(name = GeoMapper.DATABASE)
	static class MaxMindConfiguration {

		@Bean(destroyMethod = "close")
		@ConditionalOnMissingBean(CountryLookup.class)
		MaxMindCountryLookup rateLimitCountryLookup(RateLimitProperties properties) {
			return GeoMapper.maxMind(properties.getGeo());
		}

	}

}
