-- The subscription a Stripe event cancels after its transaction commits (decisions/billing.md:
-- two live subscriptions); null once Stripe has canceled it.
ALTER TABLE "stripe_events" ADD COLUMN "cancel_subscription_id" TEXT;
