package io.github.ratelimit.behaviour;

/**
 * The usual ways an application configures CORS, each with its configuration on the stack
 * it belongs to.
 */
enum CorsStyle {

	/** {@code WebMvcConfigurer.addCorsMappings}. */
	MVC_CORS_MAPPINGS(Stack.MVC, CorsApi.class, MvcCorsConfigurations.CorsMappings.class),

	/** {@code @CrossOrigin} on the controller (Spring MVC). */
	MVC_CROSS_ORIGIN(Stack.MVC, CrossOriginCorsApi.class),

	/** A {@code CorsFilter} bean around an inline source (Spring MVC). */
	MVC_CORS_FILTER(Stack.MVC, CorsApi.class, MvcCorsConfigurations.CorsFilterBean.class),

	/** Spring Security's {@code cors()} with a {@code CorsConfigurationSource} bean. */
	MVC_SECURITY(Stack.MVC, CorsApi.class, MvcCorsConfigurations.SecurityCors.class),

	/** {@code WebFluxConfigurer.addCorsMappings}. */
	WEBFLUX_CORS_MAPPINGS(Stack.WEBFLUX, CorsApi.class, WebFluxCorsConfigurations.CorsMappings.class),

	/** {@code @CrossOrigin} on the controller (WebFlux). */
	WEBFLUX_CROSS_ORIGIN(Stack.WEBFLUX, CrossOriginCorsApi.class),

	/** A {@code CorsWebFilter} bean around an inline source. */
	WEBFLUX_CORS_WEB_FILTER(Stack.WEBFLUX, CorsApi.class, WebFluxCorsConfigurations.CorsWebFilterBean.class),

	/** Spring Security's {@code cors()} with a {@code CorsConfigurationSource} bean. */
	WEBFLUX_SECURITY(Stack.WEBFLUX, CorsApi.class, WebFluxCorsConfigurations.SecurityCors.class);

	private final Stack stack;

	private final boolean security;

	private final Class<?>[] sources;

	CorsStyle(Stack stack, Class<?>... sources) {
		this.stack = stack;
		this.sources = sources;
		this.security = name().endsWith("SECURITY");
	}

	Stack stack() {
		return this.stack;
	}

	/**
	 * Whether the application refuses an origin it does not allow before the limiter sees
	 * the request: Spring Security's CORS filter runs before the limiter's filter.
	 */
	boolean rejectsOtherOriginsBeforeTheLimiter() {
		return this.security;
	}

	Class<?>[] sources() {
		return this.sources.clone();
	}

}
