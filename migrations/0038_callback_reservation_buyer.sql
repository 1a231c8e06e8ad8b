-- A marketplace call-back's reservation names its buyer, so a buyer holds at most one (decision 0061).
ALTER TABLE `callback_opportunities` ADD `reserved_by_user_id` text;
