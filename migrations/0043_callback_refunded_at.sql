-- A call-back of an order refunded in full is marked refunded (docs/decisions/0075): it leaves My Call-Backs,
-- its reminder and the return cap, and is not sold again.
ALTER TABLE `callback_opportunities` ADD `refunded_at` integer;
