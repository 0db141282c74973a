package io.github.ratelimit.autoconfigure;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import io.github.bucket4j.TimeMeter;
import org.apache.catalina.valves.ValveBase;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingFilterBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.tomcat.TomcatContextCustomizer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.web.servlet.mvc.method.RequestMappingInfoHandlerMapping;
import reactor.core.scheduler.Schedulers;

import io.github.ratelimit.control.ControlStore;
import io.github.ratelimit.control.RuntimeControl;
import io.github.ratelimit.core.AddressGate;
import io.github.ratelimit.core.AddressScreen;
import io.github.ratelimit.core.DecisionListener;
import io.github.ratelimit.core.FailureMode;
import io.github.ratelimit.core.LoginProtection;
import io.github.ratelimit.core.RateLimiter;
import io.github.ratelimit.core.RejectionLogger;
import io.github.ratelimit.core.RequestKeys;
import io.github.ratelimit.http.ProblemDetailsBodyWriter;
import io.github.ratelimit.http.RateLimitHeaders;
import io.github.ratelimit.http.RejectionBodyWriter;
import io.github.ratelimit.identity.AddressTiers;
import io.github.ratelimit.identity.ClientIpResolver;
import io.github.ratelimit.identity.Identifier;
import io.github.ratelimit.identity.IdentityResolver;
import io.github.ratelimit.identity.LoginAccountResolver;
import io.github.ratelimit.load.InFlightRequests;
import io.github.ratelimit.load.LoadSignal;
import io.github.ratelimit.policy.InvalidRateLimitConfigurationException;
import io.github.ratelimit.policy.PolicyRegistry;
import io.github.ratelimit.policy.PolicyTable;
import io.github.ratelimit.storage.RateLimitStore;
import io.github.ratelimit.storage.StoreKeys;
import io.github.ratelimit.storage.memory.InMemoryControlStore;
import io.github.ratelimit.storage.memory.InMemoryRateLimitStore;
import io.github.ratelimit.web.EndpointClassifier;
import io.github.ratelimit.web.EndpointRule;
import io.github.ratelimit.web.LoginAttempts;
import io.github.ratelimit.web.reactive.ReactiveAnnotatedRoutes;
import io.github.ratelimit.web.reactive.ReactiveCors;
import io.github.ratelimit.web.reactive.ReactiveFunctionalRoutes;
import io.github.ratelimit.web.reactive.ReactiveRateLimitFilter;
import io.github.ratelimit.web.reactive.ReactiveRateLimitGateFilter;
import io.github.ratelimit.web.servlet.RateLimitFilter;
import io.github.ratelimit.web.servlet.RateLimitGateFilter;
import io.github.ratelimit.web.servlet.RefusedBodyValve;
import io.github.ratelimit.web.servlet.ResponseHeadersValve;
import io.github.ratelimit.web.servlet.ServletAnnotatedRoutes;
import io.github.ratelimit.web.servlet.ServletCors;
import io.github.ratelimit.web.servlet.ServletFunctionalRoutes;

/**
 * Auto-configuration of the rate limiter: policies, identities, the store (in memory
 * unless {@link RateLimitRedisAutoConfiguration} provided one) and the web filter of the
 * application's stack. Every property is validated here, at startup.
 */
@AutoConfiguration(after = RateLimitRedisAutoConfiguration.class)
@Conditional(OnRateLimitEnabledCondition.class)
@EnableConfigurationProperties(RateLimitProperties.class)
@Import(RateLimitConverters.class)
public final class RateLimitAutoConfiguration {

	private static final Logger logger = LoggerFactory.getLogger(RateLimitAutoConfiguration.class);

	@Bean
	@ConditionalOnMissingBean
	PolicyTable rateLimitPolicyTable(RateLimitProperties properties) {
		return PolicyMapper.policyTable(properties);
	}

	@Bean
	@ConditionalOnMissingBean
	PolicyRegistry rateLimitPolicyRegistry(PolicyTable policyTable) {
		return new PolicyRegistry(policyTable);
	}

	@Bean
	@ConditionalOnMissingBean
	ControlStore rateLimitControlStore(RateLimitProperties properties) {
		return new InMemoryControlStore(Clock.systemUTC(), InMemoryControlStore.DEFAULT_MAX_SUBJECTS,
				RuntimeControlMapper.maxActiveBans(properties.getBans()));
	}

	@Bean(destroyMethod = "close")
	@ConditionalOnMissingBean
	RuntimeControl rateLimitRuntimeControl(RateLimitProperties properties, ControlStore controlStore,
			PolicyRegistry policyRegistry) {
		RuntimeControl control = new RuntimeControl(controlStore, policyRegistry,
				RuntimeControlMapper.accessRules(properties.getAccess(), policyRegistry.current()),
				RuntimeControlMapper.banRules(properties), Clock.systemUTC(),
				RuntimeControlMapper.refreshInterval(properties.getControl()));
		return control;
	}

	private static int hotKeyTokens(RateLimitProperties.HotKeys hotKeys) {
		if (hotKeys.getMaxTokens() < 0 || hotKeys.getMaxTokens() == 1) {
			throw new InvalidRateLimitConfigurationException("ratelimit.storage.redis.hot-keys.max-tokens",
					hotKeys.getMaxTokens(), "must be 0 (no reserves) or at least 2", "100");
		}
		Duration hold = hotKeys.getHold();
		if (hold == null || hold.isNegative() || hold.isZero()) {
			throw new InvalidRateLimitConfigurationException("ratelimit.storage.redis.hot-keys.hold", hold,
					"must be positive", "1s");
		}
		return hotKeys.getMaxTokens();
	}

	/**
	 * Keeps the runtime control in step with its store from when the context starts,
	 * before the web server takes requests, until it stops, after the web server stopped.
	 */
	@Bean
	BackgroundWork rateLimitRuntimeControlRefresh(RuntimeControl runtimeControl) {
		return new BackgroundWork(runtimeControl::start, runtimeControl::close);
	}

	@Bean
	@ConditionalOnMissingBean
	ClientIpResolver rateLimitClientIpResolver(RateLimitProperties properties) {
		return IdentityMapper.clientIpResolver(properties.getIdentity());
	}

	@Bean
	@ConditionalOnMissingBean
	Identifier rateLimitCallerIdentifier(RateLimitProperties properties, PolicyTable policyTable,
			PolicyRegistry policyRegistry, ClientIpResolver clientIpResolver,
			ObjectProvider<IdentityResolver> identityResolvers, ObjectProvider<AddressTiers> addressTiers) {
		RateLimitProperties.Identity identity = properties.getIdentity();
		List<IdentityResolver> resolvers = new ArrayList<>(identityResolvers.orderedStream().toList());
		if (!identity.getApiKeys().isEmpty()) {
			resolvers.add(IdentityMapper.apiKeyResolver(identity, policyTable));
		}
		if (SpringSecurityResolvers.isPresent()) {
			resolvers.add(SpringSecurityResolvers.create(identity));
		}
		// the tiers of the table in force: a table replaced at runtime may add or remove
		// tiers
		return new Identifier(resolvers, clientIpResolver, (tier) -> policyRegistry.current().hasTier(tier),
				identity.getAnonymousTier(), identity.getAuthenticatedTier(), addressTiers.getIfUnique());
	}

	@Bean
	@ConditionalOnMissingBean
	RateLimitStore rateLimitStore(RateLimitProperties properties) {
		RateLimitProperties.Storage storage = properties.getStorage();
		if (storage.getType() == RateLimitProperties.StorageType.REDIS) {
			throw new InvalidRateLimitConfigurationException("ratelimit.storage.type", "redis",
					"no Redis connection is configured: add spring-boot-starter-data-redis and set spring.data.redis.url",
					"memory");
		}
		return inMemoryStore(storage);
	}

	@Bean
	@ConditionalOnMissingBean
	StoreKeys rateLimitStoreKeys(RateLimitProperties properties) {
		return new StoreKeys(properties.getStorage().getKeyPrefix());
	}

	@Bean
	@ConditionalOnMissingBean
	RequestKeys rateLimitRequestKeys(RateLimitProperties properties, BeanFactory beanFactory) {
		return KeyMapper.requestKeys(properties, beanFactory);
	}

	@Bean
	@ConditionalOnMissingBean
	InFlightRequests rateLimitInFlightRequests() {
		return new InFlightRequests();
	}

	/**
	 * Load shedding, adaptive limits and the warm-up ({@code ratelimit.load},
	 * {@code ratelimit.warm-up}): the application's {@link LoadSignal} if it defines one,
	 * and its {@link Clock} for the warm-up.
	 */
	@Bean
	RateLimitLoad rateLimitLoad(RateLimitProperties properties, PolicyTable policyTable, InFlightRequests inFlight,
			ObjectProvider<LoadSignal> loadSignal, ObjectProvider<CpuSampling> cpuSampling,
			ObjectProvider<Clock> clock) {
		CpuSampling cpu = cpuSampling.getIfAvailable();
		return new RateLimitLoad(properties, policyTable, inFlight, loadSignal.getIfUnique(),
				(cpu != null) ? cpu.signal() : null, clock.getIfUnique(Clock::systemUTC));
	}

	@Bean
	@ConditionalOnProperty(name = "ratelimit.load.cpu", havingValue = "system")
	CpuSampling rateLimitSystemCpuSampling() {
		return new CpuSampling(LoadProperties.CpuSignal.SYSTEM);
	}

	@Bean
	@ConditionalOnProperty(name = "ratelimit.load.cpu", havingValue = "process")
	CpuSampling rateLimitProcessCpuSampling() {
		return new CpuSampling(LoadProperties.CpuSignal.PROCESS);
	}

	@Bean
	@ConditionalOnMissingBean
	RateLimiter rateLimiter(RateLimitProperties properties, Identifier callerIdentifier, PolicyTable policyTable,
			RuntimeControl runtimeControl, RateLimitStore store, StoreKeys storeKeys, RequestKeys requestKeys,
			RateLimitLoad load) {
		RateLimitProperties.Storage storage = properties.getStorage();
		RateLimitStore fallback = (storage.getFailureMode() == FailureMode.LOCAL) ? inMemoryStore(storage) : null;
		if (properties.getTiers().isEmpty() && properties.getIp().isEmpty() && properties.getService().isEmpty()
				&& requestKeys.names().isEmpty()) {
			logger.warn("Rate limiting is enabled but no limit is configured (ratelimit.tiers, ratelimit.ip, "
					+ "ratelimit.service, ratelimit.keys): every request passes unlimited");
		}
		else {
			logger.info("Rate limiting tiers {} over groups {} with {} (failure mode {})", policyTable.tiers(),
					policyTable.groups(), store.getClass().getSimpleName(), storage.getFailureMode());
		}
		LoginProtection loginProtection = LoginProtectionMapper.loginProtection(properties);
		if (loginProtection != null) {
			logger.info("Protecting logins: failed attempts {} per address, {} per account",
					loginProtection.perAddress().limit().spec(),
					(loginProtection.perAccount() != null) ? loginProtection.perAccount().limit().spec() : "unlimited");
		}
		return RateLimiter.builder(callerIdentifier, store)
			.control(runtimeControl)
			.failureMode(storage.getFailureMode(), fallback)
			.clock(Clock.systemUTC())
			.maxWaiting(properties.getWaiting().getMaxRequests())
			.localRefusals(storage.getRedis().isLocalRefusals())
			.hotKeyReserves(hotKeyTokens(storage.getRedis().getHotKeys()), storage.getRedis().getHotKeys().getHold())
			.loginProtection(loginProtection)
			.storeKeys(storeKeys)
			.requestKeys(requestKeys)
			.load(load.inFlight(), load.shedder(), load.scaled())
			.build();
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnProperty(name = "ratelimit.login-protection.enabled", havingValue = "true")
	LoginAttempts rateLimitLoginAttempts(RateLimitProperties properties,
			ObjectProvider<LoginAccountResolver> accountResolver) {
		return LoginProtectionMapper.loginAttempts(properties, accountResolver.getIfUnique());
	}

	@Bean
	@ConditionalOnMissingBean
	AddressGate rateLimitAddressGate(Identifier callerIdentifier, RuntimeControl runtimeControl,
			ObjectProvider<AddressScreen> addressScreens) {
		return new AddressGate(callerIdentifier, runtimeControl, Clock.systemUTC(),
				addressScreens.orderedStream().toList());
	}

	@Bean
	@ConditionalOnMissingBean
	RateLimitHeaders rateLimitHeaders(RateLimitProperties properties) {
		return WebMapper.headers(properties.getHeaders());
	}

	@Bean
	@ConditionalOnMissingBean
	RejectionBodyWriter rateLimitRejectionBodyWriter() {
		return new ProblemDetailsBodyWriter();
	}

	@Bean
	@ConditionalOnMissingBean
	RejectionLogger rateLimitRejectionLogger() {
		return new RejectionLogger();
	}

	private static InMemoryRateLimitStore inMemoryStore(RateLimitProperties.Storage storage) {
		long heap = Runtime.getRuntime().maxMemory();
		long maxKeys = memoryBound("max-keys", storage.getMemory().getMaxKeys(),
				InMemoryRateLimitStore.defaultMaxKeys(heap));
		long maxIdentifiedKeys = memoryBound("max-identified-keys", storage.getMemory().getMaxIdentifiedKeys(),
				InMemoryRateLimitStore.defaultMaxIdentifiedKeys(heap));
		return new InMemoryRateLimitStore(maxKeys, maxIdentifiedKeys, TimeMeter.SYSTEM_NANOTIME, Clock.systemUTC());
	}

	private static long memoryBound(String property, @Nullable Long configured, long byDefault) {
		long bound = (configured != null) ? configured : byDefault;
		if (bound < 1) {
			throw new InvalidRateLimitConfigurationException("ratelimit.storage.memory." + property, bound,
					"must be at least 1", "1000000");
		}
		return bound;
	}

	/**
	 * Handler mappings and router functions are complete once every singleton exists:
	 * find the annotated handlers and routes then, so that a bad route attribute stops
	 * the start and the first requests neither pay for the search nor wait on each other
	 * for it.
	 */
	private static SmartInitializingSingleton prepare(EndpointClassifier classifier, RateLimitProperties properties,
			PolicyTable policies) {
		return () -> {
			classifier.prepare();
			WebMapper.checkGroups(properties, classifier, policies);
			KeyMapper.checkHandlers(properties, classifier);
			List<String> annotated = classifier.describeAnnotated();
			if (!annotated.isEmpty()) {
				logger.info("Rate-limited handlers and routes: {}", String.join("; ", annotated));
			}
		};
	}

	private static Supplier<List<EndpointRule>> handlerRules(Supplier<List<EndpointRule>> annotated,
			Supplier<List<EndpointRule>> functional) {
		return () -> {
			List<EndpointRule> rules = new ArrayList<>(annotated.get());
			rules.addAll(functional.get());
			return rules;
		};
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
	@ConditionalOnClass(RequestMappingInfoHandlerMapping.class)
	static class ServletConfiguration {

		@Bean
		@ConditionalOnMissingBean
		EndpointClassifier rateLimitEndpointClassifier(RateLimitProperties properties, ApplicationContext context) {
			return WebMapper.classifier(properties, context.getEnvironment(), handlerRules(
					() -> ServletAnnotatedRoutes.find(context), () -> ServletFunctionalRoutes.find(context)));
		}

		@Bean
		SmartInitializingSingleton rateLimitEndpointClassifierPreparation(EndpointClassifier classifier,
				RateLimitProperties properties, PolicyTable policies) {
			return prepare(classifier, properties, policies);
		}

		/**
		 * Refusals of cross-origin requests carry the application's CORS headers, our
		 * headers are exposed to scripts, and preflights are free.
		 */
		@Bean
		@ConditionalOnMissingBean
		ServletCors rateLimitServletCors(RateLimitHeaders headers, ApplicationContext context) {
			return ServletCorsBeans.cors(headers, context);
		}

		@Bean
		@ConditionalOnMissingFilterBean(RateLimitFilter.class)
		FilterRegistrationBean<RateLimitFilter> rateLimitFilter(RateLimitProperties properties, RateLimiter limiter,
				EndpointClassifier classifier, RateLimitHeaders headers, RejectionBodyWriter bodyWriter,
				ObjectProvider<DecisionListener> listeners, ServletCors cors) {
			RateLimitFilter filter = new RateLimitFilter(limiter, classifier, headers, bodyWriter,
					DecisionListener.composite(listeners.orderedStream().toList()), cors);
			FilterRegistrationBean<RateLimitFilter> registration = new FilterRegistrationBean<>(filter);
			registration.setName("rateLimitFilter");
			registration.setOrder(properties.getFilter().getOrder());
			return registration;
		}

		@Bean
		@ConditionalOnMissingFilterBean(RateLimitGateFilter.class)
		@ConditionalOnProperty(name = "ratelimit.filter.gate-enabled", matchIfMissing = true)
		FilterRegistrationBean<RateLimitGateFilter> rateLimitGateFilter(RateLimitProperties properties,
				AddressGate gate, RateLimiter limiter, EndpointClassifier classifier, RateLimitHeaders headers,
				RejectionBodyWriter bodyWriter, ObjectProvider<DecisionListener> listeners,
				ObjectProvider<LoginAttempts> loginAttempts, ApplicationContext context, ServletCors cors) {
			RateLimitGateFilter filter = new RateLimitGateFilter(gate, classifier,
					GateOpenPaths.of(context.getEnvironment()), headers, bodyWriter,
					DecisionListener.composite(listeners.orderedStream().toList()), limiter,
					loginAttempts.getIfAvailable(), cors);
			FilterRegistrationBean<RateLimitGateFilter> registration = new FilterRegistrationBean<>(filter);
			registration.setName("rateLimitGateFilter");
			registration.setOrder(properties.getFilter().getGateOrder());
			return registration;
		}

	}

	/**
	 * On Boot's embedded Tomcat, a refused request's unread body is not read before its
	 * connection closes ({@link RefusedBodyValve}), and the filter sets its headers as
	 * bytes ({@link ResponseHeadersValve}).
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
	@ConditionalOnClass({ ValveBase.class, TomcatContextCustomizer.class })
	static class TomcatConfiguration {

		@Bean
		TomcatContextCustomizer rateLimitRefusedBodyValve() {
			return (context) -> context.getPipeline().addValve(new RefusedBodyValve());
		}

		@Bean
		TomcatContextCustomizer rateLimitResponseHeadersValve() {
			return (context) -> context.getPipeline().addValve(new ResponseHeadersValve());
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
	@ConditionalOnClass(org.springframework.web.reactive.result.method.RequestMappingInfoHandlerMapping.class)
	static class ReactiveConfiguration {

		@Bean
		@ConditionalOnMissingBean
		EndpointClassifier rateLimitEndpointClassifier(RateLimitProperties properties, ApplicationContext context) {
			return WebMapper.classifier(properties, context.getEnvironment(), handlerRules(
					() -> ReactiveAnnotatedRoutes.find(context), () -> ReactiveFunctionalRoutes.find(context)));
		}

		@Bean
		SmartInitializingSingleton rateLimitEndpointClassifierPreparation(EndpointClassifier classifier,
				RateLimitProperties properties, PolicyTable policies) {
			return prepare(classifier, properties, policies);
		}

		/**
		 * Refusals of cross-origin requests carry the application's CORS headers, our
		 * headers are exposed to scripts, and preflights are free.
		 */
		@Bean
		@ConditionalOnMissingBean
		ReactiveCors rateLimitReactiveCors(RateLimitHeaders headers, ApplicationContext context) {
			return ReactiveCorsBeans.cors(headers, context);
		}

		/**
		 * The application's CORS beans are looked up once they all exist, before the
		 * first request: a burst of cold cross-origin refusals would otherwise race for
		 * the lookup's lock on event loops.
		 */
		@Bean
		SmartInitializingSingleton rateLimitReactiveCorsPreparation(ReactiveCors cors) {
			return cors::prepare;
		}

		@Bean
		@ConditionalOnMissingBean
		ReactiveRateLimitFilter reactiveRateLimitFilter(RateLimitProperties properties, RateLimiter limiter,
				EndpointClassifier classifier, RateLimitHeaders headers, RejectionBodyWriter bodyWriter,
				ObjectProvider<DecisionListener> listeners, ReactiveCors cors) {
			return new ReactiveRateLimitFilter(limiter, classifier, headers, bodyWriter,
					DecisionListener.composite(listeners.orderedStream().toList()), properties.getFilter().getOrder(),
					Schedulers.parallel(), cors);
		}

		@Bean
		@ConditionalOnMissingBean
		@ConditionalOnProperty(name = "ratelimit.filter.gate-enabled", matchIfMissing = true)
		ReactiveRateLimitGateFilter reactiveRateLimitGateFilter(RateLimitProperties properties, AddressGate gate,
				RateLimiter limiter, EndpointClassifier classifier, RateLimitHeaders headers,
				RejectionBodyWriter bodyWriter, ObjectProvider<DecisionListener> listeners,
				ObjectProvider<LoginAttempts> loginAttempts, ApplicationContext context, ReactiveCors cors) {
			return new ReactiveRateLimitGateFilter(gate, classifier, GateOpenPaths.of(context.getEnvironment()),
					headers, bodyWriter, DecisionListener.composite(listeners.orderedStream().toList()),
					properties.getFilter().getGateOrder(), limiter, loginAttempts.getIfAvailable(), cors);
		}

	}

}
