package io.github.ratelimit.web.servlet;

import java.util.List;
import java.util.function.Supplier;

import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;
import org.springframework.http.server.RequestPath;
import org.springframework.util.Assert;
import org.springframework.web.cors.CorsConfiguration;
import org.springframework.web.cors.CorsConfigurationSource;
import org.springframework.web.servlet.HandlerExecutionChain;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.HandlerMapping;
import org.springframework.web.util.ServletRequestPathUtils;

/**
 * The CORS configuration Spring MVC applies to a request: that of the handler the first
 * matching handler mapping finds, as {@code WebMvcConfigurer.addCorsMappings},
 * {@code @CrossOrigin} and functional routes configure it. What
 * {@code HandlerMappingIntrospector} does, which Spring Framework 7 deprecates.
 */
public final class HandlerMappingCorsSource implements CorsConfigurationSource {

	private final Supplier<List<HandlerMapping>> handlerMappings;

	/**
	 * Creates a source.
	 * @param handlerMappings the dispatcher's handler mappings, in order, asked for at
	 * the first request (they are complete once the context has started)
	 */
	public HandlerMappingCorsSource(Supplier<List<HandlerMapping>> handlerMappings) {
		Assert.notNull(handlerMappings, "'handlerMappings' must not be null");
		this.handlerMappings = handlerMappings;
	}

	@Override
	public @Nullable CorsConfiguration getCorsConfiguration(HttpServletRequest request) {
		RequestPath previous = (RequestPath) request.getAttribute(ServletRequestPathUtils.PATH_ATTRIBUTE);
		ServletRequestPathUtils.parseAndCache(request);
		try {
			for (HandlerMapping mapping : this.handlerMappings.get()) {
				HandlerExecutionChain chain = handler(mapping, request);
				if (chain != null) {
					return configuration(chain, request);
				}
			}
			return null;
		}
		finally {
			ServletRequestPathUtils.setParsedRequestPath(previous, request);
		}
	}

	private static @Nullable HandlerExecutionChain handler(HandlerMapping mapping, HttpServletRequest request) {
		try {
			return mapping.getHandler(request);
		}
		catch (Exception ex) {
			// no handler here (a method not allowed, say): as the dispatcher, try the
			// next
			return null;
		}
	}

	// the handler mapping adds a CORS interceptor, or answers a preflight with a handler
	// of its own, both holding the configuration
	private static @Nullable CorsConfiguration configuration(HandlerExecutionChain chain, HttpServletRequest request) {
		for (HandlerInterceptor interceptor : chain.getInterceptorList()) {
			if (interceptor instanceof CorsConfigurationSource source) {
				return source.getCorsConfiguration(request);
			}
		}
		return (chain.getHandler() instanceof CorsConfigurationSource source) ? source.getCorsConfiguration(request)
				: null;
	}

}
