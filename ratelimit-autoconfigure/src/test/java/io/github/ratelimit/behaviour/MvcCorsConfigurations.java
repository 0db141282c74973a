package io.github.ratelimit.behaviour;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.cors.UrlBasedCorsConfigurationSource;
import org.springframework.web.filter.CorsFilter;
import org.springframework.web.servlet.config.annotation.CorsRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * The usual ways a Spring MVC application configures CORS, one configuration class each
 * ({@link CorsConfigurations}).
 */
final class MvcCorsConfigurations {

	private MvcCorsConfigurations() {
	}

	static UrlBasedCorsConfigurationSource source() {
		UrlBasedCorsConfigurationSource source = new UrlBasedCorsConfigurationSource();
		source.registerCorsConfiguration(CorsConfigurations.PATHS, CorsConfigurations.configuration());
		return source;
	}

	/** {@code WebMvcConfigurer.addCorsMappings}. */
	@Configuration(proxyBeanMethods = false)
	static class CorsMappings implements WebMvcConfigurer {

		@Override
		public void addCorsMappings(CorsRegistry registry) {
			registry.addMapping(CorsConfigurations.PATHS)
				.allowedOriginPatterns(CorsConfigurations.ALLOWED_ORIGIN, CorsConfigurations.LOOPBACK_PAGES)
				.allowedMethods("GET", "POST")
				.allowedHeaders("*")
				.exposedHeaders(CorsConfigurations.APP_EXPOSED_HEADER);
		}

	}

	/**
	 * A {@code CorsFilter} bean around a source that is not a bean, which Boot registers
	 * after the rate-limit filters.
	 */
	@Configuration(proxyBeanMethods = false)
	static class CorsFilterBean {

		@Bean
		CorsFilter appCorsFilter() {
			return new CorsFilter(source());
		}

	}

	/**
	 * A {@code CorsConfigurationSource} bean, which Spring Security's filter chain
	 * applies ({@code http.cors()}, on by default with such a bean).
	 */
	@Configuration(proxyBeanMethods = false)
	static class SecurityCors {

		@Bean
		UrlBasedCorsConfigurationSource corsConfigurationSource() {
			return source();
		}

	}

}
