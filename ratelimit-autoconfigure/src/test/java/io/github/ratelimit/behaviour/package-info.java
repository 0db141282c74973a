/**
 * One behavioural suite for both web stacks: the same small app on Spring MVC (Tomcat)
 * and on WebFlux (Netty), in memory and in Redis, asserted over real HTTP.
 */
@NullMarked
package io.github.ratelimit.behaviour;

import org.jspecify.annotations.NullMarked;
