package io.github.ratelimit.behaviour;

import java.util.List;

import org.springframework.web.cors.CorsConfiguration;

/**
 * What every CORS configuration of the CORS suite allows: {@link #ALLOWED_ORIGIN} and
 * pages on any loopback port, {@code GET} and {@code POST} on {@code /cors/**}, and a
 * header of the application's own exposed ({@link #APP_EXPOSED_HEADER}).
 * {@link MvcCorsConfigurations} and {@link WebFluxCorsConfigurations} configure it the
 * usual ways.
 */
final class CorsConfigurations {

	/** An origin the application allows. */
	static final String ALLOWED_ORIGIN = "https://allowed.example";

	/** An origin the application does not allow. */
	static final String OTHER_ORIGIN = "https://other.example";

	/** Pages served on 127.0.0.1, on any port: the browser tests' pages. */
	static final String LOOPBACK_PAGES = "http://127.0.0.1:[*]";

	/** A header the application exposes itself. */
	static final String APP_EXPOSED_HEADER = "X-App-Header";

	/** The paths CORS applies to. */
	static final String PATHS = "/cors/**";

	private CorsConfigurations() {
	}

	static CorsConfiguration configuration() {
		CorsConfiguration configuration = new CorsConfiguration();
		configuration.setAllowedOriginPatterns(List.of(ALLOWED_ORIGIN, LOOPBACK_PAGES));
		configuration.setAllowedMethods(List.of("GET", "POST"));
		configuration.setAllowedHeaders(List.of("*"));
		configuration.setExposedHeaders(List.of(APP_EXPOSED_HEADER));
		return configuration;
	}

}
