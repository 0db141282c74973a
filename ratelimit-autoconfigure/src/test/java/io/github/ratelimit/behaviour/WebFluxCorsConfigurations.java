package io.github.ratelimit.behaviour;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.cors.reactive.CorsConfigurationSource;
import org.springframework.web.cors.reactive.CorsWebFilter;
import org.springframework.web.cors.reactive.UrlBasedCorsConfigurationSource;
import org.springframework.web.reactive.config.CorsRegistry;
import org.springframework.web.reactive.config.WebFluxConfigurer;

/**
 * The usual ways a WebFlux application configures CORS, one configuration class each
 * ({@link CorsConfigurations}).
 */
final class WebFluxCorsConfigurations {

	private WebFluxCorsConfigurations() {
	}

	static UrlBasedCorsConfigurationSource source() {
		UrlBasedCorsConfigurationSource source = new UrlBasedCorsConfigurationSource();
		source.registerCorsConfiguration(CorsConfigurations.PATHS, CorsConfigurations.configuration());
		return source;
	}

	/** {@code WebFluxConfigurer.addCorsMappings}. */
	@Configuration(proxyBeanMethods = false)
	static class CorsMappings implements WebFluxConfigurer {

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
	 * A {@code CorsWebFilter} bean around a source that is not a bean, ordered after the
	 * rate-limit filters.
	 */
	@Configuration(proxyBeanMethods = false)
	static class CorsWebFilterBean {

		@Bean
		CorsWebFilter appCorsWebFilter() {
			return new CorsWebFilter(source());
		}

	}

	/**
	 * A {@code CorsConfigurationSource} bean, which Spring Security's filter chain
	 * applies ({@code http.cors()} in {@link WebFluxBehaviourApplication}).
	 */
	@Configuration(proxyBeanMethods = false)
	static class SecurityCors {

		@Bean
		CorsConfigurationSource corsConfigurationSource() {
			return source();
		}

	}

}
