package io.github.ratelimit.autoconfigure;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import jakarta.servlet.Filter;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.util.function.SingletonSupplier;
import org.springframework.web.HttpRequestHandler;
import org.springframework.web.cors.CorsConfigurationSource;
import org.springframework.web.cors.PreFlightRequestHandler;
import org.springframework.web.filter.CorsFilter;
import org.springframework.web.servlet.HandlerMapping;

import io.github.ratelimit.http.RateLimitHeaders;
import io.github.ratelimit.web.ExposedHeaders;
import io.github.ratelimit.web.servlet.HandlerMappingCorsSource;
import io.github.ratelimit.web.servlet.ServletCors;

/**
 * The application's CORS configuration on Spring MVC, as the rate-limit filters apply it
 * to their refusals: its {@code CorsFilter} beans (registered as they are or through a
 * {@code FilterRegistrationBean}), its {@link CorsConfigurationSource} beans (Spring
 * Security's {@code cors()} uses them) and the handler mappings. Looked up at the first
 * refusal of a cross-origin request, once every bean exists.
 */
final class ServletCorsBeans {

	private ServletCorsBeans() {
	}

	static ServletCors cors(RateLimitHeaders headers, ListableBeanFactory beans) {
		return new ServletCors(ExposedHeaders.of(headers), SingletonSupplier.of(() -> corsFilters(beans)),
				SingletonSupplier.of(() -> sources(beans)));
	}

	@SuppressWarnings("rawtypes")
	private static List<Filter> corsFilters(ListableBeanFactory beans) {
		Stream<Filter> registered = beans.getBeanProvider(FilterRegistrationBean.class)
			.orderedStream()
			.map(FilterRegistrationBean::getFilter)
			.filter(CorsFilter.class::isInstance)
			.map(Filter.class::cast);
		return Stream.concat(beans.getBeanProvider(CorsFilter.class).orderedStream(), registered).distinct().toList();
	}

	private static List<CorsConfigurationSource> sources(ListableBeanFactory beans) {
		List<CorsConfigurationSource> sources = new ArrayList<>();
		beans.getBeanProvider(CorsConfigurationSource.class)
			.orderedStream()
			// a handler's own configuration (static resources), and Spring MVC's
			// introspector, which the handler mappings below replace
			.filter((source) -> !(source instanceof HttpRequestHandler) && !(source instanceof PreFlightRequestHandler))
			.forEach(sources::add);
		sources.add(new HandlerMappingCorsSource(
				SingletonSupplier.of(() -> beans.getBeanProvider(HandlerMapping.class).orderedStream().toList())));
		return sources;
	}

}
